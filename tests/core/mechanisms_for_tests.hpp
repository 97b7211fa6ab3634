// Mechanisms made directly (not read from a request), for tests of the domains that consume them.
#pragma once

#include <doctest/doctest.h>

#include "dpcalc/mechanisms/catalog.hpp"

namespace test_mechanisms {

inline dpcalc::mechanisms::MechanismPtr made(const dpcalc::mechanisms::MechanismType& type,
                                             dpcalc::mechanisms::Arguments arguments) {
  auto mechanism = dpcalc::mechanisms::create(type, std::move(arguments));
  REQUIRE(mechanism.ok());
  return mechanism.value();
}

inline dpcalc::mechanisms::MechanismPtr laplace(double scale, double sensitivity = 1) {
  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"scale", scale}, {"sensitivity", sensitivity}};
  return made(dpcalc::mechanisms::laplace_type(), arguments);
}

inline dpcalc::mechanisms::MechanismPtr gaussian(double sigma, double sensitivity = 1) {
  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"sigma", sigma}, {"sensitivity", sensitivity}};
  return made(dpcalc::mechanisms::gaussian_type(), arguments);
}

inline dpcalc::mechanisms::MechanismPtr poisson_subsampled(double rate, dpcalc::mechanisms::MechanismPtr inner) {
  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"rate", rate}};
  arguments.mechanisms = {{"mechanism", std::move(inner)}};
  return made(dpcalc::mechanisms::poisson_subsampled_type(), arguments);
}

inline dpcalc::mechanisms::MechanismPtr exponential(double epsilon, bool adaptive = true) {
  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"epsilon", epsilon}};
  arguments.flags = {{"adaptive", adaptive}};
  return made(dpcalc::mechanisms::exponential_type(), arguments);
}

inline dpcalc::mechanisms::MechanismPtr sampled_without_replacement(double dataset_size, double sample_size,
                                                                    dpcalc::mechanisms::MechanismPtr inner) {
  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"dataset_size", dataset_size}, {"sample_size", sample_size}};
  arguments.mechanisms = {{"mechanism", std::move(inner)}};
  return made(dpcalc::mechanisms::sampled_without_replacement_type(), arguments);
}

}  // namespace test_mechanisms
