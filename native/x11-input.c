/*
 * rpav-x11-input: keyboard and mouse input for RPA Vision through the XTEST extension.
 * One long-lived process; one request per line on stdin, one reply line on stdout.
 *
 *   move X Y                      -> pointer jumps to (X, Y) (paths are computed by the caller)
 *   button WIN N down|up|click    -> mouse button N; WIN (hex id or 0) must be under the pointer
 *   char WIN CODEPOINT            -> types one Unicode character; WIN (or 0) must hold the focus
 *   key WIN KEYSYM[+KEYSYM...]    -> key combination by X keysym names ("ctrl+shift+t" as
 *                                    "Control_L+Shift_L+t"); WIN (or 0) must hold the focus
 *   pointer                       -> "ok X Y"
 * Replies: "ok", or "err gone|unfocused|covered|invalid MESSAGE".
 *
 * Safety: when WIN is given, the check "WIN exists and holds the focus / lies under the pointer"
 * and the synthetic event happen inside one server grab, so no other client (the window manager
 * included) can move the focus in between: input goes to WIN or nowhere.
 *
 * Characters without a key on the current keymap are typed by binding their keysym to one of up
 * to 16 spare keycodes first (kept bound while in use), then waiting REMAP_DELAY_US so clients see
 * the MappingNotify (xdotool loses non-ASCII characters without such a delay).
 * Build: cc -O2 -o rpav-x11-input x11-input.c -lX11 -lXtst
 */
#include <X11/Xlib.h>
#include <X11/XKBlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <X11/extensions/XTest.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

#define REMAP_DELAY_US 20000

static Display *dpy;
static Window root;
static int min_kc, max_kc;
/* Spare keycodes (no keysyms on the server's map), bound on demand to characters not on the
 * keymap. A spare keycode is rebound only after REBIND_GUARD_US since its last keystroke, so a
 * client that has not yet processed that keystroke cannot read it with the new binding. */
#define MAX_SCRATCH 16
#define REBIND_GUARD_US 60000
static int scratch_kc[MAX_SCRATCH];
static KeySym scratch_ks[MAX_SCRATCH];
static long long scratch_used[MAX_SCRATCH];
static int n_scratch;
static KeyCode shift_kc;
static int x_error;

static int on_error(Display *d, XErrorEvent *e) {
  (void)d;
  (void)e;
  x_error = 1;
  return 0;
}

static void reply(const char *s) {
  fputs(s, stdout);
  fputc('\n', stdout);
  fflush(stdout);
}

static void find_scratch(void) {
  int per = 0;
  KeySym *map = XGetKeyboardMapping(dpy, (KeyCode)min_kc, max_kc - min_kc + 1, &per);
  for (int kc = max_kc; kc >= min_kc && map && n_scratch < MAX_SCRATCH; kc--) {
    int empty = 1;
    for (int i = 0; i < per; i++)
      if (map[(kc - min_kc) * per + i] != NoSymbol) empty = 0;
    if (empty) {
      scratch_kc[n_scratch] = kc;
      scratch_ks[n_scratch] = NoSymbol;
      scratch_used[n_scratch] = 0;
      n_scratch++;
    }
  }
  if (map) XFree(map);
}

/* 0: no such window; 1: exists but not viewable (being mapped, minimised); 2: viewable. */
static int window_state(Window w) {
  XWindowAttributes a;
  x_error = 0;
  int ok = XGetWindowAttributes(dpy, w, &a);
  XSync(dpy, False);
  if (!ok || x_error) return 0;
  return a.map_state == IsViewable ? 2 : 1;
}

/* Is `w` equal to `target` or one of its descendants? */
static int within(Window w, Window target) {
  while (w && w != root && w != PointerRoot) {
    if (w == target) return 1;
    Window r, parent, *kids = NULL;
    unsigned n;
    x_error = 0;
    if (!XQueryTree(dpy, w, &r, &parent, &kids, &n) || x_error) return 0;
    if (kids) XFree(kids);
    w = parent;
  }
  return 0;
}

static int focus_in(Window target) {
  Window f;
  int revert;
  XGetInputFocus(dpy, &f, &revert);
  return within(f, target);
}

static int pointer_over(Window target) {
  Window w = root, r, child;
  int rx, ry, wx, wy;
  unsigned mask;
  for (int depth = 0; depth < 64; depth++) {
    if (!XQueryPointer(dpy, w, &r, &child, &rx, &ry, &wx, &wy, &mask)) return 0;
    if (child == None) return w == target;
    if (child == target) return 1;
    /* A popup (menu, list of a combo box) is an override-redirect window of its own: it counts
       as the target's when the target holds the keyboard focus (the app that opened it). */
    if (w == root) {
      XWindowAttributes a;
      x_error = 0;
      if (XGetWindowAttributes(dpy, child, &a) && !x_error && a.override_redirect && a.map_state == IsViewable && focus_in(target)) return 1;
    }
    w = child;
  }
  return 0;
}

/* Grabs the server and checks the target; on failure ungrabs and replies. Returns 1 when clear. */
static int guard(Window target, int need_focus, int need_pointer) {
  XGrabServer(dpy);
  if (!target) return 1;
  int state = window_state(target);
  if (state == 0) {
    XUngrabServer(dpy);
    XFlush(dpy);
    reply("err gone the target window does not exist any more");
    return 0;
  }
  if (state == 1) {
    /* A window manager may unmap and remap while it places a new window: worth a retry. */
    XUngrabServer(dpy);
    XFlush(dpy);
    reply("err unfocused the target window is not viewable");
    return 0;
  }
  if (need_focus && !focus_in(target)) {
    XUngrabServer(dpy);
    XFlush(dpy);
    reply("err unfocused the target window does not hold the keyboard focus");
    return 0;
  }
  if (need_pointer && !pointer_over(target)) {
    XUngrabServer(dpy);
    XFlush(dpy);
    reply("err covered the pointer is not over the target window");
    return 0;
  }
  return 1;
}

static void release_grab(void) {
  XSync(dpy, False);
  XUngrabServer(dpy);
  XSync(dpy, False);
}

static KeySym keysym_for(unsigned long cp) {
  if (cp == '\n' || cp == '\r') return XK_Return;
  if (cp == '\t') return XK_Tab;
  if (cp == 8) return XK_BackSpace;
  if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) return (KeySym)cp;
  return (KeySym)(0x01000000UL | cp);
}

/* Keycode and whether Shift is needed for a keysym; binds the scratch keycode if necessary. */
static int prepare(KeySym ks, KeyCode *kc, int *shift) {
  KeyCode k = XKeysymToKeycode(dpy, ks);
  if (k) {
    if (XkbKeycodeToKeysym(dpy, k, 0, 0) == ks) {
      *kc = k;
      *shift = 0;
      return 1;
    }
    if (XkbKeycodeToKeysym(dpy, k, 0, 1) == ks) {
      *kc = k;
      *shift = 1;
      return 1;
    }
  }
  if (n_scratch == 0) return 0;
  int slot = -1, lru = 0;
  for (int i = 0; i < n_scratch; i++) {
    if (scratch_ks[i] == ks) slot = i;
    if (scratch_used[i] < scratch_used[lru]) lru = i;
  }
  if (slot < 0) {
    slot = lru;
    long long wait = scratch_used[slot] + REBIND_GUARD_US - now_us();
    if (wait > 0) usleep((useconds_t)wait);
    KeySym pair[2] = {ks, ks};
    XChangeKeyboardMapping(dpy, scratch_kc[slot], 2, pair, 1);
    XSync(dpy, False);
    scratch_ks[slot] = ks;
    usleep(REMAP_DELAY_US);
  }
  scratch_used[slot] = now_us();
  *kc = (KeyCode)scratch_kc[slot];
  *shift = 0;
  return 1;
}

static void do_char(Window target, unsigned long cp) {
  KeyCode kc;
  int shift;
  if (!prepare(keysym_for(cp), &kc, &shift)) {
    reply("err invalid no keycode available for this character");
    return;
  }
  if (!guard(target, 1, 0)) return;
  if (shift) XTestFakeKeyEvent(dpy, shift_kc, True, CurrentTime);
  XTestFakeKeyEvent(dpy, kc, True, CurrentTime);
  XTestFakeKeyEvent(dpy, kc, False, CurrentTime);
  if (shift) XTestFakeKeyEvent(dpy, shift_kc, False, CurrentTime);
  release_grab();
  reply("ok");
}

static void do_key(Window target, char *combo) {
  KeyCode codes[8];
  int shifts[8];
  int n = 0;
  for (char *tok = strtok(combo, "+"); tok && n < 8; tok = strtok(NULL, "+")) {
    KeySym ks = XStringToKeysym(tok);
    if (ks == NoSymbol) {
      char msg[200];
      snprintf(msg, sizeof msg, "err invalid unknown keysym %s", tok);
      reply(msg);
      return;
    }
    if (!prepare(ks, &codes[n], &shifts[n])) {
      reply("err invalid no keycode available for this key");
      return;
    }
    n++;
  }
  if (n == 0) {
    reply("err invalid empty key combination");
    return;
  }
  if (!guard(target, 1, 0)) return;
  int last_shift = shifts[n - 1];
  if (last_shift) XTestFakeKeyEvent(dpy, shift_kc, True, CurrentTime);
  for (int i = 0; i < n; i++) XTestFakeKeyEvent(dpy, codes[i], True, CurrentTime);
  for (int i = n - 1; i >= 0; i--) XTestFakeKeyEvent(dpy, codes[i], False, CurrentTime);
  if (last_shift) XTestFakeKeyEvent(dpy, shift_kc, False, CurrentTime);
  release_grab();
  reply("ok");
}

static void do_button(Window target, unsigned button, const char *what) {
  if (!guard(target, 0, 1)) return;
  if (strcmp(what, "down") == 0 || strcmp(what, "click") == 0) XTestFakeButtonEvent(dpy, button, True, CurrentTime);
  if (strcmp(what, "up") == 0 || strcmp(what, "click") == 0) XTestFakeButtonEvent(dpy, button, False, CurrentTime);
  release_grab();
  reply("ok");
}

int main(void) {
  dpy = XOpenDisplay(NULL);
  if (!dpy) {
    fprintf(stderr, "rpav-x11-input: cannot open display \"%s\"\n", getenv("DISPLAY") ? getenv("DISPLAY") : "");
    return 3;
  }
  int ev, err, major, minor;
  if (!XTestQueryExtension(dpy, &ev, &err, &major, &minor)) {
    fprintf(stderr, "rpav-x11-input: the X server has no XTEST extension\n");
    return 4;
  }
  XSetErrorHandler(on_error);
  root = DefaultRootWindow(dpy);
  XDisplayKeycodes(dpy, &min_kc, &max_kc);
  find_scratch();
  shift_kc = XKeysymToKeycode(dpy, XK_Shift_L);
  char line[512];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    unsigned long win = 0, a = 0;
    int x, y;
    char word[32], rest[400];
    if (sscanf(line, "move %d %d", &x, &y) == 2) {
      XTestFakeMotionEvent(dpy, -1, x, y, CurrentTime);
      XSync(dpy, False);
      reply("ok");
    } else if (sscanf(line, "char %lx %lu", &win, &a) == 2) {
      do_char((Window)win, a);
    } else if (sscanf(line, "key %lx %399s", &win, rest) == 2) {
      do_key((Window)win, rest);
    } else if (sscanf(line, "button %lx %lu %31s", &win, &a, word) == 3) {
      do_button((Window)win, (unsigned)a, word);
    } else if (strcmp(line, "pointer") == 0) {
      Window r, c;
      int rx, ry, wx, wy;
      unsigned m;
      XQueryPointer(dpy, root, &r, &c, &rx, &ry, &wx, &wy, &m);
      char msg[64];
      snprintf(msg, sizeof msg, "ok %d %d", rx, ry);
      reply(msg);
    } else {
      reply("err invalid unknown request");
    }
  }
  for (int i = 0; i < n_scratch; i++)
    if (scratch_ks[i] != NoSymbol) {
      KeySym none[2] = {NoSymbol, NoSymbol};
      XChangeKeyboardMapping(dpy, scratch_kc[i], 2, none, 1);
    }
  XCloseDisplay(dpy);
  return 0;
}
