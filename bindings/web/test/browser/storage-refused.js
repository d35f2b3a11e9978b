// The parent of the sandboxed frame: waits for the frame's report (postMessage) and keeps it in
// window.storageRefused for scenarios.py.
window.addEventListener('message', (event) => {
  if (event.source !== document.getElementById('frame').contentWindow) return;
  window.storageRefused = event.data;
  document.getElementById('result').textContent = JSON.stringify(event.data);
});
