/** Registers a service worker at the root and resolves once it controls this page. */
export async function controlledBy(scriptUrl: string): Promise<void> {
  await navigator.serviceWorker.register(scriptUrl, { scope: '/' });
  const matches = () => navigator.serviceWorker.controller?.scriptURL.endsWith(scriptUrl) ?? false;
  if (matches()) return;
  await new Promise<void>((resolve) => {
    navigator.serviceWorker.addEventListener('controllerchange', function onChange() {
      if (!matches()) return;
      navigator.serviceWorker.removeEventListener('controllerchange', onChange);
      resolve();
    });
  });
}
