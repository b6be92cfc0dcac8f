import { AppShell, Button, NavList, Notice } from '@otto/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { applyUpdate, onUpdateReady } from '../../backend/app-updates';
import type { BackendHandle } from '../../backend/start-backend';
import { rendersBeforeStart, startOnce } from '../../backend/start-once';
import { useStart } from '../../backend/use-start';
import { BackupNudge } from '../../features/data/components/backup-nudge';
import { DatabaseRecoveryScreen } from '../../features/data/components/database-recovery-screen';
import { DataDialog } from '../../features/data/components/data-dialog';
import { CommandPalette } from '../../features/palette/components/command-palette';
import { SyncStatusPanel } from '../../features/sync/sync-status';
import { useLiveUpdates } from '../../lib/live/use-live-updates';
import { paths } from '../../lib/paths';
import { ShortcutSheet } from '../../lib/shortcuts/shortcut-sheet';
import { shortcutHint } from '../../lib/shortcuts/shortcut-list';
import { useBizShortcuts } from '../../lib/shortcuts/use-biz-shortcuts';

/** Sync mode (decision 0163): this browser's copy syncs with a team server. */
const syncMode = Boolean(import.meta.env.VITE_OTTO_SYNC_URL?.trim());

/**
 * The /biz area: waits for the in-browser backend, then shows navigation and the screen. When the
 * first screen has a kept answer to show (start-app.tsx), it shows them at once instead (calls
 * wait for the start), and what needs the backend itself (the data menu, its notices) once it has
 * started.
 */
export default function BizLayout() {
  const start = useStart();
  // Still starting: the screen shows the kept answer, and its calls wait for the start (api-client).
  const starting = start === undefined;
  const started = start ?? { ok: false as const, message: '' };
  // Bumped when a backup is restored: every screen below starts over with the restored data.
  const [dataVersion, setDataVersion] = useState(0);
  // Every tab follows every write; a restore or reset anywhere starts the screens over (live-tabs).
  const resets = useLiveUpdates(started.ok ? started.backend : undefined);
  const [dataOpen, setDataOpen] = useState(false);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [sheetOpen, setSheetOpen] = useState(false);
  useBizShortcuts({ togglePalette: () => setPaletteOpen((open) => !open), openSheet: () => setSheetOpen(true) });
  const local = started.ok && started.backend.status.role !== 'remote';
  return (
    <AppShell
      brand={
        <Link to={paths.home.href()} className="otto-brand">
          Otto
        </Link>
      }
      tools={
        // Shown while starting too, as the palette is.
        (started.ok || starting) && (
          <Button variant="secondary" className="biz-search-button" onClick={() => setPaletteOpen(true)} {...shortcutHint(['Mod', 'K'])}>
            <svg viewBox="0 0 16 16" width="16" height="16" fill="none" aria-hidden="true">
              <circle cx="7" cy="7" r="4.75" stroke="currentColor" strokeWidth="1.5" />
              <path d="m10.5 10.5 3 3" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
            </svg>
            Search
          </Button>
        )
      }
      nav={
        <>
          <NavList label="Main">
            <NavLink to={paths.overview.href()}>Overview</NavLink>
            <NavLink to={paths.customers.list.href()} {...shortcutHint(['g', 'c'], true)}>
              Customers
            </NavLink>
            <NavLink to={paths.jobs.list.href()} {...shortcutHint(['g', 'j'], true)}>
              Jobs
            </NavLink>
            <NavLink to={paths.invoices.list.href()} {...shortcutHint(['g', 'i'], true)}>
              Invoices
            </NavLink>
            <NavLink to={paths.schedule.href()} {...shortcutHint(['g', 's'], true)}>
              Schedule
            </NavLink>
            <NavLink to={paths.archived.href()}>Archived</NavLink>
            <NavLink to={paths.settings.href()}>Settings</NavLink>
          </NavList>
          <div className="biz-nav-footer">
            {syncMode && <SyncStatusPanel place="nav" />}
            {started.ok && local && (
              <DataMenu backend={started.backend} open={dataOpen} setOpen={setDataOpen} onRestored={() => setDataVersion((v) => v + 1)} />
            )}
            <Button variant="ghost" size="sm" className="biz-shortcuts-button" onClick={() => setSheetOpen(true)} {...shortcutHint(['?'])}>
              Keyboard shortcuts
            </Button>
          </div>
          {/* While starting too: what it looks for waits for the start (api-client). */}
          {(started.ok || starting) && (
            <CommandPalette
              open={paletteOpen}
              onOpenChange={setPaletteOpen}
              onBackup={local ? () => setDataOpen(true) : undefined}
              onShowShortcuts={() => setSheetOpen(true)}
            />
          )}
          <ShortcutSheet open={sheetOpen} onOpenChange={setSheetOpen} />
        </>
      }
      banner={
        (started.ok || starting) && (
          <>
            {rendersBeforeStart() && <StillStarting />}
            {started.ok && (
              <>
                {syncMode && <SyncStatusPanel place="banner" />}
                <StorageNotice backend={started.backend} />
                {local && <BackupNudge backend={started.backend} onBackUp={() => setDataOpen(true)} />}
              </>
            )}
          </>
        )
      }
    >
      {started.ok || starting ? (
        <Outlet key={`${dataVersion}.${resets}`} />
      ) : started.problem ? (
        // The database itself cannot be opened: ways out in words instead of a broken app.
        <DatabaseRecoveryScreen message={started.message} problem={started.problem} />
      ) : (
        <Notice
          tone="error"
          title="Otto could not start its database"
          action={
            <Button size="sm" onClick={() => window.location.reload()}>
              Reload
            </Button>
          }
        >
          {started.message} Reload the page to try again.
        </Notice>
      )}
    </AppShell>
  );
}

/**
 * Shown when the first screen was drawn from the kept answer and the backend has not started three
 * seconds later (another tab still holds the database, say): what the screen shows is what was
 * saved, and what is asked of it waits. Gone once the backend has started.
 */
function StillStarting() {
  const [slow, setSlow] = useState(false);
  const [answered, setAnswered] = useState(false);
  useEffect(() => {
    let on = true;
    const timer = setTimeout(() => setSlow(true), 3_000);
    void startOnce().then(() => on && setAnswered(true));
    return () => {
      on = false;
      clearTimeout(timer);
    };
  }, []);
  if (!slow || answered) return null;
  return (
    <Notice tone="info" title="Otto is still starting">
      The list shows your data as it was last saved. Searching, opening and saving wait until Otto has started; if
      nothing happens, reload the page.
    </Notice>
  );
}

function DataMenu({
  backend,
  open,
  setOpen,
  onRestored,
}: {
  backend: BackendHandle;
  open: boolean;
  setOpen: (open: boolean) => void;
  onRestored: () => void;
}) {
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)}>
        Backup and export
      </Button>
      {open && <DataDialog backend={backend} onClose={() => setOpen(false)} onRestored={onRestored} />}
    </>
  );
}

function StorageNotice({ backend }: { backend: BackendHandle }) {
  const status = useSyncExternalStore(
    (onChange) => backend.subscribe(onChange),
    () => backend.status,
  );
  const [updateReady, setUpdateReady] = useState(false);
  useEffect(() => (status.role === 'remote' ? undefined : onUpdateReady(setUpdateReady)), [status.role]);
  const queryClient = useQueryClient();
  const wasUnreachable = useRef(false);
  useEffect(() => {
    // The server is back: what failed meanwhile loads again.
    if (wasUnreachable.current && !status.unreachable) void queryClient.invalidateQueries();
    wasUnreachable.current = status.unreachable ?? false;
  }, [status.unreachable, queryClient]);
  if (status.unreachable) {
    return (
      <Notice tone="error" title="Otto cannot reach its server">
        The server that keeps your data does not answer. Otto tries again every few seconds and carries on by itself
        when it is back; what you typed stays in the form.
      </Notice>
    );
  }
  if (status.outdated) {
    return (
      <Notice
        tone="warning"
        title="Otto was updated in another tab"
        action={
          <Button size="sm" onClick={() => void applyUpdate()}>
            Reload
          </Button>
        }
      >
        Reload to continue: until then this tab can show your data but cannot save changes.
      </Notice>
    );
  }
  if (updateReady) {
    return (
      <Notice
        tone="info"
        title="A new version of Otto is ready"
        action={
          <Button size="sm" onClick={() => void applyUpdate()}>
            Reload
          </Button>
        }
      >
        Reload when it suits you to use it; your data stays as it is.
      </Notice>
    );
  }
  if (status.storage === 'indexeddb') {
    // A browser without OPFS that has IndexedDB (decision 0110): what is kept, and what is not, in words.
    return (
      <Notice tone="info" title="Your data is kept in this browser’s IndexedDB">
        This browser has no Origin Private File System, so Otto saves a copy of all your data in IndexedDB after every
        change. It is still there after a reload or a restart of the browser. It is not kept in a private window once the
        window closes, nor when the browser’s site data is cleared: download a backup now and then.
      </Notice>
    );
  }
  if (status.storage !== 'memory') return null;
  return (
    <Notice tone="warning" title="Changes will not be kept">
      This browser does not let Otto store data on this device
      {status.fallbackReason ? ` (${status.fallbackReason})` : ''}, so everything you enter is lost when you close the
      tab.
    </Notice>
  );
}
