/** What both watch editors hold while a person types: the draft, the one problem shown, and the submit that checks. */
import { useId, useState, type SyntheticEvent } from 'react';
import { useEscape } from '../../shared/hooks/useHotkeys';
import type { FormProblem } from './signatureForm';

/**
 * `check` turns the draft into the request body or the problem with the field it is about; a problem
 * is shown until that field changes, and the field gets the focus. Esc leaves (`onDone`).
 */
export function useEditorDraft<Draft extends object, Body>(
  initial: () => Draft,
  check: (draft: Draft) => { body: Body } | FormProblem<keyof Draft & string>,
  save: (body: Body) => void,
  onDone: () => void,
) {
  type Field = keyof Draft & string;
  const id = useId();
  const fieldId = (f: Field) => `${id}-${f}`;
  const problemId = `${id}-problem`;
  const [draft, setDraft] = useState<Draft>(initial);
  const [problem, setProblem] = useState<FormProblem<Field> | null>(null);
  useEscape(onDone);

  const set = <K extends Field>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    if (problem?.field === key) setProblem(null);
  };

  const submit = (e: SyntheticEvent<HTMLFormElement>) => {
    e.preventDefault();
    const out = check(draft);
    if ('problem' in out) {
      setProblem(out);
      document.getElementById(fieldId(out.field))?.focus();
      return;
    }
    setProblem(null);
    save(out.body);
  };

  // The field the problem is about says so, and names the sentence that explains it.
  const invalid = (f: Field) =>
    problem?.field === f ? { 'aria-invalid': true as const, 'aria-describedby': problemId, className: 'invalid' } : {};

  return { id, draft, set, problem, fieldId, problemId, invalid, submit };
}
