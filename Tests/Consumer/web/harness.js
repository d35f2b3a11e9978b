// Loads the web guide's first example (first.js, as written) and records what happened, for
// bindings/web/test/browser/consumer.py: the URL the page was opened with (handleReturnPage may
// replace it), errors, and the example's registerCard (the user's tap). Not part of the guide.
window.consumer = { ready: false, errors: [], opened: location.href };
addEventListener('error', (event) => consumer.errors.push(String(event.message)));
addEventListener('unhandledrejection', (event) => consumer.errors.push(String(event.reason && event.reason.stack || event.reason)));
import('/first.js').then((example) => {
  consumer.registerCard = example.registerCard;
  consumer.ready = true;
}, (error) => consumer.errors.push(String(error && error.stack || error)));
