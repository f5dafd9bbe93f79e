/*
 * rpav-x11-record: global keyboard and mouse events of an X display through the RECORD
 * extension (what the recorder listens to). One JSON object a line on stdout:
 *
 *   {"ready":true}                                   once recording has started
 *   {"t":SERVER_MS,"ev":"key_down","keycode":38,"keysym":"a","char":"a","state":0,"x":X,"y":Y}
 *   {"t":SERVER_MS,"ev":"key_up",...}
 *   {"t":SERVER_MS,"ev":"button_down","button":1,"state":0,"x":X,"y":Y}
 *   {"t":SERVER_MS,"ev":"button_up",...}
 *
 * The keysym of a key is read from the server's current keymap at the time of the event (the
 * input helper binds spare keycodes to non-ASCII characters on the fly). Stops when stdin closes
 * or on SIGTERM/SIGINT. Exit 2 when the display cannot be opened, 3 when RECORD is missing.
 * Build: cc -O2 -o rpav-x11-record x11-record.c -lX11 -lXtst
 */
#include <X11/Xlib.h>
#include <X11/Xproto.h>
#include <X11/keysym.h>
#include <X11/extensions/record.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static Display *ctrl;
static volatile sig_atomic_t stop;

static void on_signal(int s) {
  (void)s;
  stop = 1;
}

/* Unicode code point of a keysym, 0 when it is not a character. */
static unsigned long keysym_to_ucs(KeySym ks) {
  if ((ks >= 0x20 && ks <= 0x7e) || (ks >= 0xa0 && ks <= 0xff)) return ks;
  if ((ks & 0xff000000UL) == 0x01000000UL) return ks & 0x00ffffffUL;
  switch (ks) {
    case XK_EuroSign: return 0x20ac;
    case 0x13bc: return 0x152; /* OE */
    case 0x13bd: return 0x153; /* oe */
    case 0x13be: return 0x178; /* Ydiaeresis */
    case XK_Return: case XK_KP_Enter: return '\n';
    case XK_Tab: return '\t';
    default: return 0;
  }
}

static void put_utf8(unsigned long cp) {
  if (cp == '"' || cp == '\\') printf("\\%c", (int)cp);
  else if (cp == '\n') printf("\\n");
  else if (cp == '\t') printf("\\t");
  else if (cp < 0x20) printf("\\u%04lx", cp);
  else if (cp < 0x80) putchar((int)cp);
  else if (cp < 0x800) printf("%c%c", (int)(0xc0 | (cp >> 6)), (int)(0x80 | (cp & 0x3f)));
  else if (cp < 0x10000) printf("%c%c%c", (int)(0xe0 | (cp >> 12)), (int)(0x80 | ((cp >> 6) & 0x3f)), (int)(0x80 | (cp & 0x3f)));
  else printf("%c%c%c%c", (int)(0xf0 | (cp >> 18)), (int)(0x80 | ((cp >> 12) & 0x3f)), (int)(0x80 | ((cp >> 6) & 0x3f)), (int)(0x80 | (cp & 0x3f)));
}

static void on_data(XPointer closure, XRecordInterceptData *d) {
  (void)closure;
  if (d->category == XRecordFromServer && d->data_len * 4 >= sizeof(xEvent)) {
    xEvent *ev = (xEvent *)d->data;
    int type = ev->u.u.type & 0x7f;
    int detail = ev->u.u.detail;
    int x = ev->u.keyButtonPointer.rootX;
    int y = ev->u.keyButtonPointer.rootY;
    unsigned state = ev->u.keyButtonPointer.state;
    unsigned long t = (unsigned long)ev->u.keyButtonPointer.time;
    if (type == KeyPress || type == KeyRelease) {
      int per = 0;
      KeySym *syms = XGetKeyboardMapping(ctrl, (KeyCode)detail, 1, &per);
      KeySym ks = NoSymbol;
      if (syms && per > 0) {
        ks = syms[0];
        if ((state & ShiftMask) && per > 1 && syms[1] != NoSymbol) ks = syms[1];
        else if ((state & LockMask) && ks >= XK_a && ks <= XK_z) ks = ks - XK_a + XK_A;
      }
      if (syms) XFree(syms);
      const char *name = ks != NoSymbol ? XKeysymToString(ks) : NULL;
      unsigned long cp = keysym_to_ucs(ks);
      printf("{\"t\":%lu,\"ev\":\"%s\",\"keycode\":%d,\"keysym\":\"%s\",", t, type == KeyPress ? "key_down" : "key_up", detail, name ? name : "");
      if (cp) {
        printf("\"char\":\"");
        put_utf8(cp);
        printf("\",");
      }
      printf("\"state\":%u,\"x\":%d,\"y\":%d}\n", state, x, y);
    } else if (type == ButtonPress || type == ButtonRelease) {
      printf("{\"t\":%lu,\"ev\":\"%s\",\"button\":%d,\"state\":%u,\"x\":%d,\"y\":%d}\n", t, type == ButtonPress ? "button_down" : "button_up", detail, state, x, y);
    }
    fflush(stdout);
  }
  XRecordFreeData(d);
}

int main(void) {
  Display *data;
  int major, minor;
  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);
  signal(SIGPIPE, on_signal);
  ctrl = XOpenDisplay(NULL);
  data = XOpenDisplay(NULL);
  if (!ctrl || !data) {
    fprintf(stderr, "cannot open display %s\n", getenv("DISPLAY") ? getenv("DISPLAY") : "(DISPLAY not set)");
    return 2;
  }
  if (!XRecordQueryVersion(ctrl, &major, &minor)) {
    fprintf(stderr, "the X server has no RECORD extension (start Xvfb with +extension RECORD)\n");
    return 3;
  }
  XRecordRange *range = XRecordAllocRange();
  range->device_events.first = KeyPress;
  range->device_events.last = ButtonRelease;
  XRecordClientSpec clients = XRecordAllClients;
  XRecordContext ctx = XRecordCreateContext(ctrl, 0, &clients, 1, &range, 1);
  if (!ctx) {
    fprintf(stderr, "cannot create a RECORD context\n");
    return 3;
  }
  XSync(ctrl, False);
  if (!XRecordEnableContextAsync(data, ctx, on_data, NULL)) {
    fprintf(stderr, "cannot enable the RECORD context\n");
    return 3;
  }
  printf("{\"ready\":true}\n");
  fflush(stdout);
  struct pollfd fds[2] = {{ConnectionNumber(data), POLLIN, 0}, {0, POLLIN, 0}};
  while (!stop) {
    XRecordProcessReplies(data);
    int r = poll(fds, 2, 100);
    if (r < 0) continue;
    if (fds[1].revents & (POLLIN | POLLHUP)) {
      char buf[256];
      if (read(0, buf, sizeof buf) <= 0) break;
    }
  }
  XRecordDisableContext(ctrl, ctx);
  XRecordFreeContext(ctrl, ctx);
  XFlush(ctrl);
  XRecordProcessReplies(data);
  XCloseDisplay(data);
  XCloseDisplay(ctrl);
  return 0;
}
