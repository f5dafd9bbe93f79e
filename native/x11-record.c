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
 * The keysym of a key is resolved against a mirror of the keymap kept in step with the recorded
 * ChangeKeyboardMapping requests, so a key bound on the fly (the input helper binds spare
 * keycodes to non-ASCII characters) reads as it was bound when it was pressed. A button press
 * carries the client window under the pointer at the press ("window": id, title, app, bbox). Stops when stdin closes
 * or on SIGTERM/SIGINT. Exit 2 when the display cannot be opened, 3 when RECORD is missing.
 * Build: cc -O2 -o rpav-x11-record x11-record.c -lX11 -lXtst
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
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

/* The keyboard mapping as the server has it at the point of the event stream being read: loaded
 * once, then updated by every ChangeKeyboardMapping request recorded in the same stream (the
 * input helper binds spare keycodes on the fly; asking the server when an event is read would
 * give the binding of a later key). */
static int min_kc, max_kc, per_kc;
static KeySym *keymap;

static void load_keymap(void) {
  XDisplayKeycodes(ctrl, &min_kc, &max_kc);
  KeySym *m = XGetKeyboardMapping(ctrl, (KeyCode)min_kc, max_kc - min_kc + 1, &per_kc);
  size_t n = (size_t)(max_kc - min_kc + 1) * (size_t)per_kc;
  keymap = malloc(n * sizeof(KeySym));
  if (m && keymap) memcpy(keymap, m, n * sizeof(KeySym));
  if (m) XFree(m);
}

static void apply_mapping_request(const unsigned char *data, unsigned len) {
  if (len < sizeof(xChangeKeyboardMappingReq) || !keymap) return;
  const xChangeKeyboardMappingReq *rq = (const xChangeKeyboardMappingReq *)data;
  int first = rq->firstKeyCode, count = rq->keyCodes, per = rq->keySymsPerKeyCode;
  const CARD32 *syms = (const CARD32 *)(data + sizeof(xChangeKeyboardMappingReq));
  if ((size_t)len < sizeof(xChangeKeyboardMappingReq) + (size_t)count * per * 4) return;
  for (int k = 0; k < count; k++) {
    int kc = first + k;
    if (kc < min_kc || kc > max_kc) continue;
    for (int j = 0; j < per_kc; j++) keymap[(size_t)(kc - min_kc) * per_kc + j] = j < per ? (KeySym)syms[k * per + j] : NoSymbol;
  }
}

static KeySym keysym_at(int kc, int col) {
  if (!keymap || kc < min_kc || kc > max_kc || col >= per_kc) return NoSymbol;
  return keymap[(size_t)(kc - min_kc) * per_kc + col];
}

static void put_json_string(const char *s);

/* The top-level client window (the one with WM_STATE) under the pointer now, with its title,
 * class and client-area geometry, printed as a "window" member; read while the event is being
 * handled, before a dialog the click closes can go away. */
static Atom a_wm_state, a_net_wm_name, a_utf8;

static Window client_of(Window w, int depth) {
  Atom type;
  int fmt;
  unsigned long n, after;
  unsigned char *prop = NULL;
  if (XGetWindowProperty(ctrl, w, a_wm_state, 0, 0, False, AnyPropertyType, &type, &fmt, &n, &after, &prop) == Success && type != None) {
    if (prop) XFree(prop);
    return w;
  }
  if (prop) XFree(prop);
  if (depth > 4) return 0;
  Window root, parent, *kids = NULL;
  unsigned nk = 0;
  if (!XQueryTree(ctrl, w, &root, &parent, &kids, &nk)) return 0;
  Window found = 0;
  for (int i = (int)nk - 1; i >= 0 && !found; i--) found = client_of(kids[i], depth + 1);
  if (kids) XFree(kids);
  return found;
}

/* Set by any X error: a window destroyed while it is being read (a click that closed it). */
static volatile int x_failed = 0;

static int ignore_errors(Display *d, XErrorEvent *e) {
  (void)d;
  (void)e;
  x_failed = 1;
  return 0;
}

static void put_window_under_pointer(void) {
  Window root, child = 0;
  int rx, ry, wx, wy;
  unsigned mask;
  x_failed = 0;
  if (!XQueryPointer(ctrl, DefaultRootWindow(ctrl), &root, &child, &rx, &ry, &wx, &wy, &mask) || !child) return;
  Window w = client_of(child, 0);
  if (!w) return;
  XWindowAttributes at;
  if (!XGetWindowAttributes(ctrl, w, &at)) return;
  int ax = 0, ay = 0;
  Window dummy;
  XTranslateCoordinates(ctrl, w, DefaultRootWindow(ctrl), 0, 0, &ax, &ay, &dummy);
  char *title = NULL;
  Atom type;
  int fmt;
  unsigned long n, after;
  unsigned char *prop = NULL;
  if (XGetWindowProperty(ctrl, w, a_net_wm_name, 0, 4096, False, a_utf8, &type, &fmt, &n, &after, &prop) == Success && prop && fmt == 8) title = (char *)prop;
  else {
    if (prop) XFree(prop);
    prop = NULL;
    XFetchName(ctrl, w, &title);
  }
  XClassHint cls = {NULL, NULL};
  XGetClassHint(ctrl, w, &cls);
  XSync(ctrl, False);
  if (x_failed) {
    /* Gone while being read: no window rather than one with an empty title (the recorder keeps the one it saw). */
    if (title) XFree(title);
    if (cls.res_name) XFree(cls.res_name);
    if (cls.res_class) XFree(cls.res_class);
    return;
  }
  printf(",\"window\":{\"id\":\"0x%lx\",\"title\":", (unsigned long)w);
  put_json_string(title ? title : "");
  printf(",\"app\":");
  put_json_string(cls.res_class ? cls.res_class : "");
  printf(",\"bbox\":[%d,%d,%d,%d]}", ax, ay, ax + at.width, ay + at.height);
  if (title) XFree(title);
  if (cls.res_name) XFree(cls.res_name);
  if (cls.res_class) XFree(cls.res_class);
}

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

/* A C string (UTF-8) as a JSON string. */
static void put_json_string(const char *s) {
  putchar('"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') printf("\\%c", *p);
    else if (*p < 0x20) printf("\\u%04x", *p);
    else putchar(*p);
  }
  putchar('"');
}

static void on_data(XPointer closure, XRecordInterceptData *d) {
  (void)closure;
  if (d->category == XRecordFromClient && d->data_len * 4 >= sizeof(xChangeKeyboardMappingReq) && ((unsigned char *)d->data)[0] == X_ChangeKeyboardMapping) {
    apply_mapping_request((const unsigned char *)d->data, d->data_len * 4);
  } else if (d->category == XRecordFromServer && d->data_len * 4 >= sizeof(xEvent)) {
    xEvent *ev = (xEvent *)d->data;
    int type = ev->u.u.type & 0x7f;
    int detail = ev->u.u.detail;
    int x = ev->u.keyButtonPointer.rootX;
    int y = ev->u.keyButtonPointer.rootY;
    unsigned state = ev->u.keyButtonPointer.state;
    unsigned long t = (unsigned long)ev->u.keyButtonPointer.time;
    if (type == KeyPress || type == KeyRelease) {
      KeySym ks = keysym_at(detail, 0);
      KeySym shifted = keysym_at(detail, 1);
      if ((state & ShiftMask) && shifted != NoSymbol) ks = shifted;
      else if ((state & LockMask) && ks >= XK_a && ks <= XK_z) ks = ks - XK_a + XK_A;
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
      printf("{\"t\":%lu,\"ev\":\"%s\",\"button\":%d,\"state\":%u,\"x\":%d,\"y\":%d", t, type == ButtonPress ? "button_down" : "button_up", detail, state, x, y);
      if (type == ButtonPress) put_window_under_pointer();
      printf("}\n");
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
  XSetErrorHandler(ignore_errors);
  a_wm_state = XInternAtom(ctrl, "WM_STATE", False);
  a_net_wm_name = XInternAtom(ctrl, "_NET_WM_NAME", False);
  a_utf8 = XInternAtom(ctrl, "UTF8_STRING", False);
  load_keymap();
  XRecordRange *range = XRecordAllocRange();
  range->device_events.first = KeyPress;
  range->device_events.last = ButtonRelease;
  range->core_requests.first = X_ChangeKeyboardMapping;
  range->core_requests.last = X_ChangeKeyboardMapping;
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
