// The inputs of a section's form description (form.js), without building the form: what the page's
// registry (sections.js) and the <dp-calculator> element read of each section's defaults.

/** Every field (not preset) of a form description. */
export const fieldsOf = (description) =>
  description.flatMap((fieldset) => fieldset.fields.filter((field) => field.name));
