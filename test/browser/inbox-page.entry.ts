// Bundled by esbuild for the browser test page: Novu's own Inbox UI (@novu/js/ui), mounted with
// the options the page is given (backendUrl and socketUrl pointing at the service under test).
import { NovuUI } from '@novu/js/ui';

(globalThis as any).mountInbox = (options: Record<string, unknown>, element: unknown) => {
  const ui = new NovuUI({ options: options as never });
  ui.mountComponent({ name: 'Inbox', element: element as never, props: {} });
  return ui;
};
