// How this device's copy stands with its team server (sync mode, decision 0163): synced, changes
// waiting, offline since, the first download's progress, and the changes the server refused.
import { syncChannelName, type SyncMessage, type SyncStatus } from '@otto/mock-backend/browser';
import { Button } from '@otto/ui';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { describeNotice } from './sync-words';
import './sync-status.css';

const time = (at: number) => new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
const changes = (n: number) => `${n} change${n === 1 ? '' : 's'}`;

/** The line that says how sync stands, in words. */
export function syncSummary(state: SyncStatus | undefined): string {
  if (!state) return 'Connecting to the team server…';
  if (state.updateRequired) {
    return `Otto was updated on your team server: reload to update this device${state.waiting ? ` (${changes(state.waiting)} waiting here, sent after the update)` : ''}.`;
  }
  if (state.firstSync) {
    if (state.offlineSince !== null) return `Waiting for the team server to download your data (${state.problem ?? 'it cannot be reached'}).`;
    return state.pulled > 0 ? `Downloading your data… ${state.pulled.toLocaleString()} records so far` : 'Downloading your data…';
  }
  if (state.offlineSince !== null) {
    return `Offline since ${time(state.offlineSince)}${state.waiting ? ` · ${changes(state.waiting)} waiting` : ''} · saved on this device`;
  }
  if (state.waiting) return `${changes(state.waiting)} waiting to sync`;
  return state.lastSyncedAt ? `Synced ${time(state.lastSyncedAt)}` : 'Synced';
}

/**
 * The sync line, and the list of changes the team server refused (each with why, a link to its
 * record, Try again for a change the server kept failing, and Dismiss). `nav`: under the navigation (wide screens); `banner`: above the screen, on
 * a phone (where the navigation is folded away), and only when something needs seeing.
 */
export function SyncStatusPanel({ place }: { place: 'nav' | 'banner' }) {
  const [state, setState] = useState<SyncStatus>();
  const channel = useRef<BroadcastChannel>(undefined);
  useEffect(() => {
    const opened = new BroadcastChannel(syncChannelName);
    channel.current = opened;
    opened.onmessage = (event: MessageEvent<SyncMessage>) => {
      if (event.data?.type === 'sync-state') setState(event.data.state);
    };
    // A tab that opens asks at once rather than wait for the next tick.
    opened.postMessage({ type: 'sync-now' } satisfies SyncMessage);
    return () => opened.close();
  }, []);
  const notices = state?.notices ?? [];
  const tone = notices.length ? 'error' : state?.updateRequired ? 'waiting' : state?.offlineSince !== null && state ? 'offline' : state?.waiting ? 'waiting' : 'synced';
  return (
    <div className={`sync-status sync-status--${place}`} data-sync={tone}>
      <p role={place === 'nav' ? 'status' : undefined} className="sync-status__line">
        {syncSummary(state)}
      </p>
      {state?.updateRequired && (
        <Button size="sm" variant="primary" onClick={() => window.location.reload()}>
          Reload to update
        </Button>
      )}
      {state && state.waitingList.length > 0 && (
        <details className="sync-status__waiting">
          <summary>What is waiting</summary>
          <ul>
            {state.waitingList.map((write) => {
              const { what, href } = describeNotice(write);
              return <li key={write.requestId}>{href ? <Link to={href}>{what}</Link> : what}, {time(write.madeAt)}</li>;
            })}
            {state.waiting > state.waitingList.length && <li>and {changes(state.waiting - state.waitingList.length)} more</li>}
          </ul>
        </details>
      )}
      {notices.length > 0 && (
        <details className="sync-status__notices" open>
          <summary>{`${changes(notices.length)} not saved`}</summary>
          <ul>
            {notices.map((notice) => {
              const { what, why, href, yours } = describeNotice(notice);
              return (
                <li key={notice.requestId}>
                  <strong>{what}</strong> was not saved: {why}{' '}
                  {yours.length > 0 && (
                    <details className="sync-status__yours">
                      <summary>What you wrote</summary>
                      <dl>
                        {yours.map(({ label, text }) => (
                          <div key={label}>
                            <dt>{label}</dt>
                            <dd>{text}</dd>
                          </div>
                        ))}
                      </dl>
                    </details>
                  )}
                  {href && <Link to={href}>See it as it is now</Link>}{' '}
                  {notice.retry && (
                    <Button size="sm" variant="secondary" onClick={() => channel.current?.postMessage({ type: 'sync-retry', requestId: notice.requestId } satisfies SyncMessage)}>
                      Try again
                    </Button>
                  )}{' '}
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => channel.current?.postMessage({ type: 'sync-dismiss', requestId: notice.requestId } satisfies SyncMessage)}
                  >
                    Dismiss
                  </Button>
                </li>
              );
            })}
          </ul>
        </details>
      )}
    </div>
  );
}
