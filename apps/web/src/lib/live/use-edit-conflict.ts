import { useState } from 'react';

export interface EditConflictInput {
  /** The record being edited (its id), so that opening another record starts over. */
  id: string;
  /** `modified_dt` of the record as the cache holds it now (refetched when any tab saves it); 0 while loading. */
  current: number;
  /** `modified_dt` of what this tab last saved, if it saved; its own saves are not news. */
  saved: number | undefined;
  /** This tab is saving: the record is about to change because of it. */
  saving: boolean;
  /**
   * The record has loaded. Defaults to `current !== 0`; a record whose version is 0 until first
   * saved (a customer's notes and addresses) says so itself, so that a first save elsewhere is news.
   */
  ready?: boolean;
  /**
   * The record as the cache holds it now has the content this tab last saved, under another
   * version: a sync's copy of this tab's own save coming back from the team server with the
   * version the server gave it (decision 0163). Not news: the form goes on over that version.
   */
  sameAsSaved?: boolean;
}

/**
 * Notices when a record open in an edit form was saved by someone else (another tab, another
 * browser on a shared server): its `modified_dt` is newer than what the form was built from, what
 * this tab saved, and what the user already chose to keep editing over.
 * `expected` is that version: send it as `If-Match`, so that a save never overwrites a change the
 * user has not seen (the server answers 412 instead, and the notice appears).
 * @example
 * const conflict = useEditConflict({ id, current: c.modified_dt, saved: update.data?.modified_dt, saving: update.isPending });
 * <CustomerForm key={conflict.formKey} … />
 */
export function useEditConflict({ id, current, saved, saving, ready = current !== 0, sameAsSaved = false }: EditConflictInput) {
  const [state, setState] = useState({ id, loaded: current, taken: ready, seen: 0, formKey: 0 });
  // Another record, or the first load of this one: the form is built from this version.
  let own = state;
  if (state.id !== id) own = { id, loaded: current, taken: ready, seen: 0, formKey: state.formKey + 1 };
  else if (!state.taken && ready) own = { ...state, loaded: current, taken: true };
  if (own !== state) setState(own);
  const expected = Math.max(own.loaded, own.seen, saved ?? 0, saved !== undefined && sameAsSaved ? current : 0);

  return {
    /** The record changed underneath the form, and the user has not yet chosen what to do. */
    changed: !saving && current > expected,
    expected,
    /** A key for the form: it changes when the new version is loaded, so the form starts over with it. */
    formKey: `${id}.${own.formKey}`,
    /** Rebuilds the form from the record as it is now (what was typed is dropped). */
    loadNewVersion: () => setState({ id, loaded: current, taken: ready, seen: 0, formKey: own.formKey + 1 }),
    /** Keeps what was typed; saving then goes over the version the user has now seen. */
    keepEditing: () => setState({ ...own, seen: current }),
  };
}
