package worker

// sharedWorkerGuardJS makes the SharedWorker constructor throw in a window. A shared
// worker is not attached by the tab's auto-attach (it belongs to no one page), so its
// fetches and WebSockets would escape page interception; like service workers, it is
// blocked unless the session allows service workers.
const sharedWorkerGuardJS = `function (win) {
  const refuse = function SharedWorker() {
    throw new win.DOMException('shared workers are blocked by fastbrowser (egress.serviceWorkers)', 'SecurityError');
  };
  define(win, 'SharedWorker', {value: refuse, writable: false, configurable: false});
}`
