/** A text field's value in a submitted form: '' when the form has no such field (never "null"). */
export const fieldText = (form: FormData, name: string): string => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};
