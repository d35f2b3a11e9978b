// The parent of the sandboxed frame: opens it with this page's query (the module under test),
// waits for its report (postMessage) and keeps it in window.storageRefused for scenarios.py.
document.getElementById('frame').src = `/test/storage-frame.html${location.search}`;
window.addEventListener('message', (event) => {
  if (event.source !== document.getElementById('frame').contentWindow) return;
  window.storageRefused = event.data;
  document.getElementById('result').textContent = JSON.stringify(event.data);
});
