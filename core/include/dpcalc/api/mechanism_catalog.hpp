// The mechanism catalog (dpcalc/mechanisms/catalog.hpp) described for JavaScript.
#pragma once

#include "dpcalc/api/value.hpp"

namespace dpcalc::api {

// [{name, title, meaning, parameters: [{name, meaning, kind: 'number' | 'numbers' | 'mechanism',
// default?}], calibratable: [{unknown, parameter, per_sensitivity}]}], in the catalog's order.
Value mechanism_catalog_value();

}  // namespace dpcalc::api
