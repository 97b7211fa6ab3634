"""Reference values of tests/core/tradeoff/gdp_bound_test.cpp: the smallest mu for which a privacy profile
delta(eps) is mu-GDP, max over eps >= 0 of the mu solving delta_mu(eps) = delta(eps) (Dong, Roth, Su 2019,
Cor. 2.13), for randomized response at eps (pure eps-DP) and the Laplace mechanism. mpmath, 30 digits. Run:
  /usr/bin/python3 tests/reference/gdp_bound_reference.py
"""
import mpmath as mp
mp.mp.dps=30
def dmu(mu,e):
    return mp.ncdf(-e/mu+mu/2)-mp.e**e*mp.ncdf(-e/mu-mu/2)
def mu_for(d,e):
    if d<=0: return mp.mpf(0)
    lo,hi=mp.mpf('1e-6'),mp.mpf(60)
    for _ in range(120):
        m=(lo+hi)/2
        if dmu(m,e)>=d: hi=m
        else: lo=m
    return hi
def smallest(delta, L, n=200):
    f=lambda e: mu_for(delta(e), e)
    xs=[L*i/n for i in range(0,n)]
    vals=[f(x) for x in xs]
    i=max(range(len(xs)), key=lambda j: vals[j])
    return vals[i], xs[i]
for eps in [1, 0.5, 3]:
    rr=lambda e, eps=eps: (mp.e**eps-mp.e**e)/(1+mp.e**eps)
    v,at=smallest(rr, eps)
    print('pure', eps, mp.nstr(v,15), 'at', at, 'closed 2*Phi^-1(e^eps/(1+e^eps))', mp.nstr(2*mp.sqrt(2)*mp.erfinv(2*mp.e**eps/(1+mp.e**eps)-1),15))
for b in [1, 2]:
    e0=mp.mpf(1)/b
    lap=lambda e, e0=e0: 1-mp.e**((e-e0)/2)
    v,at=smallest(lap, e0)
    print('laplace b', b, mp.nstr(v,15), 'at', at, 'closed at 0', mp.nstr(mu_for(lap(0),0),15))
