/*
 * rpav-x11-windows: a long-lived helper that answers window queries for RPA Vision through one X
 * connection (what xprop and xwininfo tell, without a process start per query: under a loaded
 * replay each start cost 35–150 ms). One process per WindowInfo; requests on stdin, one JSON line
 * per reply on stdout.
 *
 *   request  "list\n"     -> {"active":"0x…"|null,"windows":[W, …]}   (the _NET_CLIENT_LIST, in order)
 *   request  "get ID\n"   -> {"active":…,"windows":[W]}              (no W when the window is gone)
 *   request  "active\n"   -> {"active":"0x…"|null}
 *   error                 -> {"error":"…"}
 *
 *   W = {"id":"0x…","title":…,"class":…,"instance":…,"pid":N|null,"x":…,"y":…,"width":…,"height":…,
 *        "frame":[left,right,top,bottom],"viewable":true|false,"hidden":true|false}
 *
 * The title is _NET_WM_NAME (UTF-8), else WM_NAME (Latin-1 or compound text, turned into UTF-8).
 * x, y is the client window's absolute upper-left corner as xwininfo computes it (translated to the
 * root from minus its border width): right under a reparenting window manager, unlike the
 * geometry relative to the frame. A window that vanishes while it is described is left out.
 * Build: cc -O2 -o rpav-x11-windows x11-windows.c -lX11
 */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Display *dpy;
static Window root;
static Atom a_client_list, a_active, a_net_wm_name, a_utf8, a_pid, a_frame, a_state, a_hidden;

static int x_error_seen;
static int on_x_error(Display *d, XErrorEvent *e) {
  (void)d;
  (void)e;
  x_error_seen = 1;
  return 0;
}

static int on_io_error(Display *d) {
  (void)d;
  fprintf(stderr, "rpav-x11-windows: the connection to the X server was lost\n");
  exit(4);
}

/* A growing output line. */
static char *out;
static size_t out_len, out_cap;

static void put(const char *s, size_t n) {
  if (out_len + n + 1 > out_cap) {
    out_cap = (out_len + n + 1) * 2;
    out = realloc(out, out_cap);
    if (!out) exit(5);
  }
  memcpy(out + out_len, s, n);
  out_len += n;
  out[out_len] = 0;
}

static void puts_(const char *s) { put(s, strlen(s)); }

static void putf(const char *fmt, long v) {
  char b[64];
  int n = snprintf(b, sizeof b, fmt, v);
  put(b, (size_t)n);
}

/* A JSON string from UTF-8 bytes (control characters escaped; other bytes as they are). */
static void put_json_string(const unsigned char *s, size_t n) {
  put("\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = s[i];
    if (c == 0) break;
    if (c == '"' || c == '\\') {
      char e[2] = {'\\', (char)c};
      put(e, 2);
    } else if (c < 0x20) {
      char e[8];
      snprintf(e, sizeof e, "\\u%04x", c);
      put(e, 6);
    } else {
      put((const char *)&c, 1);
    }
  }
  put("\"", 1);
}

static void put_id(Window w) {
  if (w == None) {
    puts_("null");
    return;
  }
  char b[32];
  int n = snprintf(b, sizeof b, "\"0x%lx\"", (unsigned long)w);
  put(b, (size_t)n);
}

static void flush_line(void) {
  put("\n", 1);
  fwrite(out, 1, out_len, stdout);
  fflush(stdout);
  out_len = 0;
}

/* A property's raw value (format 8, 32 as longs); NULL when absent. Free with XFree. */
static unsigned char *prop(Window w, Atom name, Atom want, Atom *type, int *format, unsigned long *n) {
  unsigned long after;
  unsigned char *data = NULL;
  *n = 0;
  if (XGetWindowProperty(dpy, w, name, 0, 65536, False, want, type, format, n, &after, &data) != Success) return NULL;
  if (!data || *type == None) {
    if (data) XFree(data);
    return NULL;
  }
  return data;
}

static Window active_window(void) {
  Atom type;
  int format;
  unsigned long n;
  unsigned char *d = prop(root, a_active, XA_WINDOW, &type, &format, &n);
  Window w = (d && format == 32 && n > 0) ? (Window)((unsigned long *)d)[0] : None;
  if (d) XFree(d);
  return w;
}

/* The title as UTF-8 into the output: _NET_WM_NAME, else WM_NAME converted. */
static void put_title(Window w) {
  Atom type;
  int format;
  unsigned long n;
  unsigned char *d = prop(w, a_net_wm_name, a_utf8, &type, &format, &n);
  if (d && format == 8) {
    put_json_string(d, n);
    XFree(d);
    return;
  }
  if (d) XFree(d);
  d = prop(w, XA_WM_NAME, AnyPropertyType, &type, &format, &n);
  if (!d || format != 8) {
    if (d) XFree(d);
    puts_("\"\"");
    return;
  }
  if (type == XA_STRING) {
    /* Latin-1 to UTF-8. */
    unsigned char *u = malloc(2 * n + 1);
    size_t k = 0;
    for (unsigned long i = 0; i < n && d[i]; i++) {
      if (d[i] < 0x80) u[k++] = d[i];
      else {
        u[k++] = (unsigned char)(0xC0 | (d[i] >> 6));
        u[k++] = (unsigned char)(0x80 | (d[i] & 0x3F));
      }
    }
    put_json_string(u, k);
    free(u);
  } else if (type == a_utf8) {
    put_json_string(d, n);
  } else {
    XTextProperty tp = {d, type, format, n};
    char **list = NULL;
    int count = 0;
    if (Xutf8TextPropertyToTextList(dpy, &tp, &list, &count) >= Success && count > 0 && list) put_json_string((unsigned char *)list[0], strlen(list[0]));
    else puts_("\"\"");
    if (list) XFreeStringList(list);
  }
  XFree(d);
}

/* One window as W into the output; 0 (nothing written) when it is gone. */
static int put_window(Window w) {
  size_t mark = out_len;
  x_error_seen = 0;
  XWindowAttributes attr;
  if (!XGetWindowAttributes(dpy, w, &attr) || x_error_seen) return 0;
  int rx = 0, ry = 0;
  Window child;
  if (!XTranslateCoordinates(dpy, w, attr.root, -attr.border_width, -attr.border_width, &rx, &ry, &child) || x_error_seen) return 0;
  puts_("{\"id\":");
  put_id(w);
  puts_(",\"title\":");
  put_title(w);
  Atom type;
  int format;
  unsigned long n;
  unsigned char *d = prop(w, XA_WM_CLASS, XA_STRING, &type, &format, &n);
  const char *instance = "", *klass = "";
  size_t il = 0, cl = 0;
  if (d && format == 8) {
    instance = (const char *)d;
    il = strnlen(instance, n);
    if (il + 1 < n) {
      klass = instance + il + 1;
      cl = strnlen(klass, n - il - 1);
    }
  }
  puts_(",\"class\":");
  put_json_string((const unsigned char *)klass, cl);
  puts_(",\"instance\":");
  put_json_string((const unsigned char *)instance, il);
  if (d) XFree(d);
  d = prop(w, a_pid, XA_CARDINAL, &type, &format, &n);
  if (d && format == 32 && n > 0) putf(",\"pid\":%ld", (long)((unsigned long *)d)[0]);
  else puts_(",\"pid\":null");
  if (d) XFree(d);
  putf(",\"x\":%ld", rx);
  putf(",\"y\":%ld", ry);
  putf(",\"width\":%ld", attr.width);
  putf(",\"height\":%ld", attr.height);
  long ext[4] = {0, 0, 0, 0};
  d = prop(w, a_frame, XA_CARDINAL, &type, &format, &n);
  if (d && format == 32)
    for (unsigned long i = 0; i < n && i < 4; i++) ext[i] = (long)((unsigned long *)d)[i];
  if (d) XFree(d);
  putf(",\"frame\":[%ld", ext[0]);
  putf(",%ld", ext[1]);
  putf(",%ld", ext[2]);
  putf(",%ld]", ext[3]);
  int hidden = 0;
  d = prop(w, a_state, XA_ATOM, &type, &format, &n);
  if (d && format == 32)
    for (unsigned long i = 0; i < n; i++)
      if ((Atom)((unsigned long *)d)[i] == a_hidden) hidden = 1;
  if (d) XFree(d);
  puts_(attr.map_state == IsViewable ? ",\"viewable\":true" : ",\"viewable\":false");
  puts_(hidden ? ",\"hidden\":true}" : ",\"hidden\":false}");
  XSync(dpy, False);
  if (x_error_seen) {
    /* Gone half-way: nothing of it is kept. */
    out_len = mark;
    out[out_len] = 0;
    return 0;
  }
  return 1;
}

static void reply_list(void) {
  Atom type;
  int format;
  unsigned long n;
  x_error_seen = 0;
  unsigned char *d = prop(root, a_client_list, XA_WINDOW, &type, &format, &n);
  puts_("{\"active\":");
  put_id(active_window());
  puts_(",\"windows\":[");
  int first = 1;
  if (d && format == 32) {
    for (unsigned long i = 0; i < n; i++) {
      size_t mark = out_len;
      if (!first) puts_(",");
      if (put_window((Window)((unsigned long *)d)[i])) first = 0;
      else {
        out_len = mark; /* the comma too */
        out[out_len] = 0;
      }
    }
  }
  if (d) XFree(d);
  puts_("]}");
  flush_line();
}

static void reply_get(Window w) {
  puts_("{\"active\":");
  put_id(active_window());
  puts_(",\"windows\":[");
  put_window(w);
  puts_("]}");
  flush_line();
}

static void reply_active(void) {
  puts_("{\"active\":");
  put_id(active_window());
  puts_("}");
  flush_line();
}

int main(void) {
  dpy = XOpenDisplay(NULL);
  if (!dpy) {
    fprintf(stderr, "rpav-x11-windows: cannot open display \"%s\"\n", getenv("DISPLAY") ? getenv("DISPLAY") : "");
    return 3;
  }
  XSetErrorHandler(on_x_error);
  XSetIOErrorHandler(on_io_error);
  root = DefaultRootWindow(dpy);
  a_client_list = XInternAtom(dpy, "_NET_CLIENT_LIST", False);
  a_active = XInternAtom(dpy, "_NET_ACTIVE_WINDOW", False);
  a_net_wm_name = XInternAtom(dpy, "_NET_WM_NAME", False);
  a_utf8 = XInternAtom(dpy, "UTF8_STRING", False);
  a_pid = XInternAtom(dpy, "_NET_WM_PID", False);
  a_frame = XInternAtom(dpy, "_NET_FRAME_EXTENTS", False);
  a_state = XInternAtom(dpy, "_NET_WM_STATE", False);
  a_hidden = XInternAtom(dpy, "_NET_WM_STATE_HIDDEN", False);
  char line[256];
  while (fgets(line, sizeof line, stdin)) {
    unsigned long id;
    if (strncmp(line, "list", 4) == 0) reply_list();
    else if (sscanf(line, "get %lx", &id) == 1) reply_get((Window)id);
    else if (strncmp(line, "active", 6) == 0) reply_active();
    else {
      puts_("{\"error\":\"unknown request\"}");
      flush_line();
    }
  }
  XCloseDisplay(dpy);
  return 0;
}
