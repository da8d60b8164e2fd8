// The means of keeping the phone's screen on (loaded by phone/awake.js the first time they are wanted; best effort:
// the Wake Lock API is missing on a plain-http LAN page).
// 1. The Screen Wake Lock API where it exists (secure origins only: https or localhost).
// 2. Otherwise (a plain-http LAN page): the "NoSleep" technique — a tiny, muted, looping, inline video that
//    plays on the page. It is generated on the fly from a canvas (no file, no CDN) and started from a user gesture.
// Both are re-armed when the page becomes visible again (the lock is dropped when the screen turns off).

let mode = 'none'; // 'wakelock' | 'video' | 'none'
let sentinel = null;
let video = null;
let wanted = false;

function hasWakeLock() {
  return 'wakeLock' in navigator && window.isSecureContext;
}

async function lockScreen() {
  try {
    sentinel = await navigator.wakeLock.request('screen');
    mode = 'wakelock';
    sentinel.addEventListener('release', () => { sentinel = null; });
    return true;
  } catch {
    return false;
  }
}

function makeVideo() {
  const v = document.createElement('video');
  v.setAttribute('playsinline', '');
  v.setAttribute('muted', '');
  v.setAttribute('aria-hidden', 'true');
  v.muted = true;
  v.loop = true;
  v.playsInline = true;
  v.id = 'nosleep';
  // Visible to the browser (a hidden video does not keep the screen on), invisible to the eye.
  Object.assign(v.style, {
    position: 'fixed', left: '0', bottom: '0', width: '2px', height: '2px', opacity: '0.01',
    pointerEvents: 'none', zIndex: '-1',
  });
  const canvas = document.createElement('canvas');
  canvas.width = 2;
  canvas.height = 2;
  const ctx = canvas.getContext('2d');
  let tick = 0;
  const paint = () => {
    tick = (tick + 1) % 2;
    ctx.fillStyle = tick ? '#0a2a21' : '#0b2b22';
    ctx.fillRect(0, 0, 2, 2);
  };
  paint();
  if (canvas.captureStream) {
    v.srcObject = canvas.captureStream(1);
    // A stream only carries frames that are painted: a frame a second keeps the video "playing".
    setInterval(paint, 1000);
    // Then, as NoSleep does, loop a real (tiny) video file: record one second of the canvas into a blob.
    recordLoop(canvas, paint).then(async (url) => {
      if (!url) return;
      const stream = v.srcObject;
      v.srcObject = null;
      v.src = url;
      try {
        await v.play();
      } catch {
        v.removeAttribute('src');
        v.srcObject = stream;
        v.play().catch(() => {});
      }
    });
  }
  document.body.appendChild(v);
  return v;
}

function recordLoop(canvas, paint) {
  if (!window.MediaRecorder || !canvas.captureStream) return Promise.resolve(null);
  return new Promise((resolve) => {
    try {
      const type = ['video/webm;codecs=vp8', 'video/webm', 'video/mp4'].find((t) => MediaRecorder.isTypeSupported(t));
      if (!type) { resolve(null); return; }
      const stream = canvas.captureStream(5);
      const rec = new MediaRecorder(stream, { mimeType: type, videoBitsPerSecond: 20000 }); // not a rule duration: bits per second
      const chunks = [];
      rec.ondataavailable = (e) => { if (e.data && e.data.size) chunks.push(e.data); };
      rec.onstop = () => {
        stream.getTracks().forEach((tr) => tr.stop());
        resolve(chunks.length ? URL.createObjectURL(new Blob(chunks, { type })) : null);
      };
      const timer = setInterval(paint, 100);
      rec.start();
      setTimeout(() => { clearInterval(timer); rec.stop(); }, 1200);
    } catch {
      resolve(null);
    }
  });
}

async function playVideo() {
  if (!video) video = makeVideo();
  try {
    await video.play();
    mode = 'video';
    return true;
  } catch {
    return false;
  }
}

let arming = false;
async function arm() {
  if (!wanted || arming || document.visibilityState !== 'visible') return;
  arming = true;
  try { await armNow(); } finally { arming = false; }
}

async function armNow() {
  if (hasWakeLock()) {
    if (sentinel) return;
    if (await lockScreen()) return;
  }
  if (video && !video.paused) return;
  await playVideo();
}

/** Call from a user gesture (a tap): from then on the screen is kept awake. */
export function keepAwake() {
  wanted = true;
  arm();
}

export function awakeMode() {
  return mode;
}

document.addEventListener('visibilitychange', () => { arm(); });
// The page calls keepAwake() again on later taps: some browsers pause the video or drop the lock behind our back.
