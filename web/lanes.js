// Which requests run in the numeric lane (a worker of their own, with progress and cancel): written
// by `npm run docs` from the op table's lanes (core/src/api/op_table.cpp); do not edit.
export const numericOps = [
  'profile',
  'calibrate',
  'dpsgd',
  'dpsgd_samplers',
  'groupwise_simulate',
  'groupwise_privacy',
  'groupwise_plan',
];
// A request of a closed-form op runs numeric when the field at a dotted path has the value.
export const numericWhen = {
  group: [
    ['mechanism.type', 'poisson_subsampled'],
    ['mechanism.type', 'gaussian_mixture'],
    ['mechanism.type', 'discrete_gaussian'],
    ['mechanism.type', 'sampled_without_replacement'],
  ],
  compose: [
    ['method', 'pld'],
    ['unknown', 'count'],
  ],
  databases: [
    ['method', 'pld'],
    ['adversary', 'uninformative'],
  ],
  tradeoff: [
    ['of.mechanism.type', 'poisson_subsampled'],
    ['of.mechanism.type', 'gaussian_mixture'],
    ['of.mechanism.type', 'discrete_gaussian'],
    ['of.mechanism.type', 'sampled_without_replacement'],
    ['of.method', 'pld'],
    ['of.unknown', 'count'],
    ['of.op', 'profile'],
    ['of.op', 'dpsgd'],
    ['of.adversary', 'uninformative'],
    ['of.mechanism.type', 'laplace'],
    ['of.mechanism.type', 'randomized_response'],
    ['of.mechanism.type', 'discrete_laplace'],
    ['of.mechanism.type', 'permute_and_flip'],
    ['of.mechanism.type', 'tree_aggregation'],
    ['of.mechanism.type', 'exponential'],
  ],
  audit: [
    ['evidence.kind', 'scores'],
    ['claim.mechanism.type', 'poisson_subsampled'],
    ['claim.mechanism.type', 'gaussian_mixture'],
    ['claim.mechanism.type', 'discrete_gaussian'],
    ['claim.mechanism.type', 'sampled_without_replacement'],
    ['claim.method', 'pld'],
    ['claim.unknown', 'count'],
    ['claim.op', 'profile'],
    ['claim.op', 'dpsgd'],
    ['claim.adversary', 'uninformative'],
    ['claim.mechanism.type', 'laplace'],
    ['claim.mechanism.type', 'randomized_response'],
    ['claim.mechanism.type', 'discrete_laplace'],
    ['claim.mechanism.type', 'permute_and_flip'],
    ['claim.mechanism.type', 'tree_aggregation'],
    ['claim.mechanism.type', 'exponential'],
  ],
};
