/*
 * rpav-x11-grab: a long-lived helper that captures X11 screen regions for RPA Vision.
 * One process per ScreenSource; requests on stdin, binary replies on stdout.
 *
 *   request  "grab X Y W H\n"  -> u32 status=0, u32 w, u32 h, then w*h*4 bytes RGBA (row-major)
 *   request  "size\n"          -> u32 status=0, u32 w, u32 h
 *   error                      -> u32 status=1, u32 len, then len bytes of UTF-8 message
 *
 * Uses MIT-SHM (XShmGetImage) when the server offers it (Xvfb does), else XGetImage.
 * Build: cc -O2 -o rpav-x11-grab x11-grab.c -lX11 -lXext
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static Display *dpy;
static Window root;
static int screen_w, screen_h;
static int use_shm;
static XShmSegmentInfo shminfo;
static XImage *shm_image; /* full-screen image reused for every grab */
static unsigned char *outbuf;
static size_t outcap;

static int write_all(const void *buf, size_t n) {
  const unsigned char *p = buf;
  while (n > 0) {
    ssize_t w = write(1, p, n);
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static void reply_error(const char *msg) {
  uint32_t hdr[2] = {1, (uint32_t)strlen(msg)};
  write_all(hdr, sizeof hdr);
  write_all(msg, strlen(msg));
}

static int x_error_seen;
static int on_x_error(Display *d, XErrorEvent *e) {
  (void)d;
  (void)e;
  x_error_seen = 1;
  return 0;
}

static void setup_shm(void) {
  int major, minor;
  Bool pixmaps;
  if (!XShmQueryVersion(dpy, &major, &minor, &pixmaps)) return;
  Visual *visual = DefaultVisual(dpy, DefaultScreen(dpy));
  int depth = DefaultDepth(dpy, DefaultScreen(dpy));
  shm_image = XShmCreateImage(dpy, visual, (unsigned)depth, ZPixmap, NULL, &shminfo, (unsigned)screen_w, (unsigned)screen_h);
  if (!shm_image) return;
  shminfo.shmid = shmget(IPC_PRIVATE, (size_t)shm_image->bytes_per_line * (size_t)shm_image->height, IPC_CREAT | 0600);
  if (shminfo.shmid < 0) return;
  shminfo.shmaddr = shm_image->data = shmat(shminfo.shmid, NULL, 0);
  shminfo.readOnly = False;
  x_error_seen = 0;
  XShmAttach(dpy, &shminfo);
  XSync(dpy, False);
  shmctl(shminfo.shmid, IPC_RMID, NULL); /* freed when both sides detach */
  if (!x_error_seen) use_shm = 1;
}

static void grab(int x, int y, int w, int h) {
  if (w <= 0 || h <= 0 || x < 0 || y < 0 || x + w > screen_w || y + h > screen_h) {
    char msg[160];
    snprintf(msg, sizeof msg, "region %dx%d+%d+%d is outside the %dx%d screen", w, h, x, y, screen_w, screen_h);
    reply_error(msg);
    return;
  }
  XImage *img;
  int ox = 0, oy = 0;
  if (use_shm) {
    /* Grab the whole screen into shared memory, then copy the region (MIT-SHM needs a fixed-size image). */
    if (!XShmGetImage(dpy, root, shm_image, 0, 0, AllPlanes)) {
      reply_error("XShmGetImage failed");
      return;
    }
    img = shm_image;
    ox = x;
    oy = y;
  } else {
    img = XGetImage(dpy, root, x, y, (unsigned)w, (unsigned)h, AllPlanes, ZPixmap);
    if (!img) {
      reply_error("XGetImage failed");
      return;
    }
  }
  if (img->bits_per_pixel != 32) {
    reply_error("only 24/32-bit TrueColor screens are supported");
    if (!use_shm) XDestroyImage(img);
    return;
  }
  size_t need = (size_t)w * (size_t)h * 4;
  if (need > outcap) {
    free(outbuf);
    outbuf = malloc(need);
    outcap = need;
  }
  unsigned long rm = img->red_mask, gm = img->green_mask, bm = img->blue_mask;
  int rs = __builtin_ctzl(rm), gs = __builtin_ctzl(gm), bs = __builtin_ctzl(bm);
  unsigned char *dst = outbuf;
  for (int row = 0; row < h; row++) {
    const uint32_t *src = (const uint32_t *)(img->data + (size_t)(row + oy) * (size_t)img->bytes_per_line) + ox;
    for (int col = 0; col < w; col++) {
      uint32_t p = src[col];
      *dst++ = (unsigned char)((p & rm) >> rs);
      *dst++ = (unsigned char)((p & gm) >> gs);
      *dst++ = (unsigned char)((p & bm) >> bs);
      *dst++ = 255;
    }
  }
  if (!use_shm) XDestroyImage(img);
  uint32_t hdr[3] = {0, (uint32_t)w, (uint32_t)h};
  if (write_all(hdr, sizeof hdr) == 0) write_all(outbuf, need);
}

int main(void) {
  dpy = XOpenDisplay(NULL);
  if (!dpy) {
    fprintf(stderr, "rpav-x11-grab: cannot open display \"%s\"\n", getenv("DISPLAY") ? getenv("DISPLAY") : "");
    return 3;
  }
  XSetErrorHandler(on_x_error);
  root = DefaultRootWindow(dpy);
  screen_w = DisplayWidth(dpy, DefaultScreen(dpy));
  screen_h = DisplayHeight(dpy, DefaultScreen(dpy));
  setup_shm();
  char line[256];
  while (fgets(line, sizeof line, stdin)) {
    int x, y, w, h;
    if (sscanf(line, "grab %d %d %d %d", &x, &y, &w, &h) == 4) {
      grab(x, y, w, h);
    } else if (strncmp(line, "size", 4) == 0) {
      uint32_t hdr[3] = {0, (uint32_t)screen_w, (uint32_t)screen_h};
      write_all(hdr, sizeof hdr);
    } else {
      reply_error("unknown request");
    }
  }
  if (use_shm) {
    XShmDetach(dpy, &shminfo);
    shmdt(shminfo.shmaddr);
  }
  XCloseDisplay(dpy);
  return 0;
}
