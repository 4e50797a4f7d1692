import { useEffect, useRef } from "react";

/**
 * Puts `values(source)` into a form whenever `source` is another object than the one it last
 * showed (the record read again after a save, another preset picked), not on the first render:
 * `useValuesFrom(saved, draftOf, form.setValues)`.
 */
export function useValuesFrom<S, V>(source: S, values: (source: S) => V, setValues: (values: V) => void): void {
  const shown = useRef(source);
  useEffect(() => {
    if (shown.current === source) return;
    shown.current = source;
    setValues(values(source));
  });
}
