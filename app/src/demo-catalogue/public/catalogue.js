// The demo catalogue's Copy buttons: each copies its request's curl line (the page cannot call the
// API itself: a browser has no key to send, so a plain link would answer 401).
for (const button of document.querySelectorAll('button.copy')) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    const curl = button.closest('li').querySelector('pre').textContent;
    try {
      await navigator.clipboard.writeText(curl);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select the line to copy';
    }
    setTimeout(() => (button.textContent = 'Copy curl'), 2000);
  });
}
