package worker

// serviceWorkerGuardJS makes service worker registration fail in a window. A service
// worker's fetches escape page interception, so by default none may start (Playwright's
// serviceWorkers:"block" works the same way).
const serviceWorkerGuardJS = `function (win) {
  const sw = win.navigator && win.navigator.serviceWorker;
  if (!sw) return;
  const refuse = function () {
    return win.Promise.reject(new win.DOMException('service worker registration is blocked by fastbrowser', 'SecurityError'));
  };
  define(getPrototypeOf(sw), 'register', {value: refuse, writable: false, configurable: false});
}`
