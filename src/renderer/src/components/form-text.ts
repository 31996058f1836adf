/** A text field of a submitted form, trimmed; '' for a missing or file field. */
export function formText(form: FormData, field: string): string {
  const value = form.get(field);
  return typeof value === 'string' ? value.trim() : '';
}
