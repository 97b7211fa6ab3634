// For pages that embed dpcalc in an <iframe> (index.html?embed=1#/section?…): sizes each such frame
// to the height its page posts ({ type: 'dpcalc:height', height }, CSS pixels) whenever it changes.
// A file rather than an inline script, so that a host page with a strict Content-Security-Policy
// (no 'unsafe-inline') only has to allow this script's origin. Load it once per page:
//   <script src="https://your.host/dpcalc/dpcalc-frame.js" defer></script>
// Only the frame that sent a height is resized, so another frame cannot resize a dpcalc frame.
(function () {
  'use strict';

  if (window.__dpcalcFrameResizer) return;
  window.__dpcalcFrameResizer = true;
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || data.type !== 'dpcalc:height' || !(data.height > 0 && data.height < 1e6)) return;
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i += 1) {
      if (frames[i].contentWindow !== event.source) continue;
      // Set here rather than in a style attribute, which a strict policy (no 'unsafe-inline') refuses.
      frames[i].style.border = '0';
      frames[i].style.width = '100%';
      frames[i].style.height = Math.ceil(data.height) + 'px';
    }
  });
})();
