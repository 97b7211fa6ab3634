"""Reference values of tests/core/mechanisms/truncated_discrete_gaussian_test.cpp: the truncated discrete
Gaussian (noise e^{-x^2/(2 sigma^2)}/Z_T on [-T, T]) as an exact pair enumerated in mpmath (40 digits), its
k-fold product convolved by privacy loss, delta(eps) = P(loss = +inf) + sum (P - e^eps Q)_+, eps(delta) by
bisection; beside it dp_accounting's from_discrete_gaussian_mechanism(sigma, sensitivity, truncation_bound)
at value_discretization_interval 1e-4 (google/differential-privacy, python/dp_accounting, from source). Run:
  PYTHONPATH=<checkout>/python/dp_accounting /usr/bin/python3 tests/reference/truncated_discrete_gaussian_reference.py
"""
from dp_accounting.pld import privacy_loss_distribution as P
import mpmath as mp
mp.mp.dps=40
def exact_pair(sigma, d, T):
    w=lambda x: mp.e**(-mp.mpf(x)**2/(2*mp.mpf(sigma)**2))
    Z=sum(w(x) for x in range(-T,T+1))
    xs=range(-T, d+T+1)
    p=[w(x-d)/Z if abs(x-d)<=T else mp.mpf(0) for x in xs]
    q=[w(x)/Z if abs(x)<=T else mp.mpf(0) for x in xs]
    return p,q
def compose(p,q,k):
    # product pair by losses: represent as dict loss->(pmass,qmass)? use outcomes tuple convolution via loss lattice
    from collections import defaultdict
    d=defaultdict(lambda:[mp.mpf(0),mp.mpf(0)])
    base=defaultdict(lambda:[mp.mpf(0),mp.mpf(0)])
    for a,b in zip(p,q):
        key = 'inf' if b==0 and a>0 else ('-inf' if a==0 else mp.nstr(mp.log(a/b),30))
        base[key][0]+=a; base[key][1]+=b
    cur={'0':[mp.mpf(1),mp.mpf(1)]}
    def addk(k1,k2):
        if 'inf' in (k1,k2) : return 'inf' if '-inf' not in (k1,k2) else None
        if '-inf' in (k1,k2): return '-inf'
        return mp.nstr(mp.mpf(k1)+mp.mpf(k2),30)
    for _ in range(k):
        nxt=defaultdict(lambda:[mp.mpf(0),mp.mpf(0)])
        for k1,(a1,b1) in cur.items():
            for k2,(a2,b2) in base.items():
                kk=addk(k1,k2)
                if kk is None:
                    # p mass: a1*a2 where one factor has q=0 -> p mass of -inf factor is 0 so product 0
                    kk='inf'
                nxt[kk][0]+=a1*a2; nxt[kk][1]+=b1*b2
        cur=nxt
    return cur
def delta_eps(cur, eps):
    s=mp.mpf(0)
    for k,(a,b) in cur.items():
        if k=='inf': s+=a
        elif k=='-inf': continue
        else: s+=max(mp.mpf(0), a-mp.e**eps*b)
    return s
for sigma,d,T,k,eps in [(1,1,1,1,0),(1,1,1,1,0.4),(1,2,1,1,0),(3,1,1,1,0.1),(1,1,2,1,1),(1,1,3,1,1),(2,1,5,10,1),(1,1,2,5,2), (5,1,10,3,0.5)]:
    p,q=exact_pair(sigma,d,T)
    cur=compose(p,q,k)
    ex=delta_eps(cur,eps)
    pld=P.from_discrete_gaussian_mechanism(sigma, sensitivity=d, truncation_bound=T, value_discretization_interval=1e-4)
    pk=pld.self_compose(k) if k>1 else pld
    print(sigma,d,T,k,eps,'mpmath',mp.nstr(ex,17),'dp_acc',pk.get_delta_for_epsilon(eps), 'infmass', mp.nstr(cur.get('inf',[0])[0],17))
print('--- eps at delta')
def eps_at(cur, delta):
    lo,hi=mp.mpf(0),mp.mpf(50)
    for _ in range(200):
        mid=(lo+hi)/2
        if delta_eps(cur,mid)>delta: lo=mid
        else: hi=mid
    return hi
for sigma,d,T,k,delta in [(5,1,10,3,0.05),(2,1,5,10,0.1),(5,1,69,12,1e-5)]:
    p,q=exact_pair(sigma,d,T)
    cur=compose(p,q,k)
    e=eps_at(cur,delta)
    pld=P.from_discrete_gaussian_mechanism(sigma, sensitivity=d, truncation_bound=T, value_discretization_interval=1e-4)
    pk=pld.self_compose(k) if k>1 else pld
    print(sigma,d,T,k,delta,'mpmath eps',mp.nstr(e,17),'dp_acc',pk.get_epsilon_for_delta(delta))
print('--- subsampled q=0.5, sigma 1, T=2, d=1, remove & add, eps=1')
for adj in [0]:
    pld=P.from_discrete_gaussian_mechanism(1, sensitivity=1, truncation_bound=2, sampling_prob=0.5, value_discretization_interval=1e-5)
    print(pld.get_delta_for_epsilon(1.0), pld.get_delta_for_epsilon(0.3))
# exact subsampled: P = q*N(x-1)+(1-q)N(x), Q=N(x) and reverse
p,q=exact_pair(1,1,2)
qq=mp.mpf('0.5')
mix=[qq*a+(1-qq)*b for a,b in zip(p,q)]
for eps in [1,0.3]:
  r=[]
  for (A,B) in [(mix,q),(q,mix)]:
    r.append(sum(max(0,a-mp.e**eps*b) for a,b in zip(A,B)))
  print('exact subsampled eps',eps, [mp.nstr(x,17) for x in r])
