(function () {
  // Move each SVG <title> into data-tip, so the tooltip below replaces the
  // browser's slower one (without scripts the titles still work).
  var tip = document.getElementById('tip');
  document.querySelectorAll('svg title').forEach(function (t) {
    t.parentNode.setAttribute('data-tip', t.textContent);
    t.parentNode.removeChild(t);
  });
  document.addEventListener('mousemove', function (e) {
    var el = e.target.closest ? e.target.closest('[data-tip]') : null;
    if (!el) { tip.style.display = 'none'; return; }
    tip.textContent = el.getAttribute('data-tip');
    tip.style.display = 'block';
    var x = e.clientX + 14, y = e.clientY + 14;
    if (x + tip.offsetWidth > window.innerWidth - 4) x = Math.max(4, e.clientX - tip.offsetWidth - 14);
    if (y + tip.offsetHeight > window.innerHeight - 4) y = Math.max(4, e.clientY - tip.offsetHeight - 14);
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  });
})();
