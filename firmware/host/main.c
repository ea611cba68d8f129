/*
 * Linux host build of the firmware core: the robot as a process. Serial bytes from the host come
 * on stdin and go out on stdout (a Node bridge, or a pseudo-terminal: `socat pty,raw,echo=0
 * EXEC:./agentcade-fw`), the screen is a 240x240 frame buffer written to a file (binary PPM)
 * whenever it changes, and the head's moves are logged on stderr. SIGUSR1 reboots it (a
 * brown-out reset: memory and queues gone, a new boot id, a new hello).
 *
 *   agentcade-fw [--fb FILE] [--serial S] [--no-shake] [--no-head] [--max-points N] [--no-draw]
 *                [--no-images] [--expressions neutral,happy,...] [--banner] [--verbose]
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/ac_core.h"

static ac_core core; /* the whole robot: one static block, no heap */
static uint16_t fb[AC_SCREEN_W * AC_SCREEN_H];
static const char *fb_path = NULL;
static int fb_dirty = 0, verbose = 0, eof = 0;
static volatile sig_atomic_t reboot_asked = 0;
static uint32_t rng_state;

static uint32_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint32_t)((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

static size_t hal_read(uint8_t *buf, size_t n) {
  ssize_t r = read(0, buf, n);
  if (r == 0) eof = 1;
  return r > 0 ? (size_t)r : 0;
}

static void hal_write(const uint8_t *buf, size_t n) {
  while (n > 0) {
    ssize_t w = write(1, buf, n);
    if (w < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      exit(0); /* the host went away */
    }
    buf += w;
    n -= (size_t)w;
  }
}

static uint32_t hal_random(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state ? rng_state : 1;
}

static void plot(int x, int y, uint16_t color) {
  if (x >= 0 && y >= 0 && x < AC_SCREEN_W && y < AC_SCREEN_H) fb[y * AC_SCREEN_W + x] = color;
}

static void hal_fill(uint16_t color) {
  for (int i = 0; i < AC_SCREEN_W * AC_SCREEN_H; i++) fb[i] = color;
}

static void hal_disc(int cx, int cy, int r, uint16_t color) {
  for (int y = -r; y <= r; y++)
    for (int x = -r; x <= r; x++)
      if (x * x + y * y <= r * r) plot(cx + x, cy + y, color);
}

/* A thick line: a disc of the line's width stamped at every Bresenham step. */
static void hal_line(int x0, int y0, int x1, int y1, int width, uint16_t color) {
  int r = width / 2 > 0 ? width / 2 : 1;
  int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1, dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1, err = dx + dy;
  for (;;) {
    hal_disc(x0, y0, r, color);
    if (x0 == x1 && y0 == y1) break;
    int e2 = 2 * err;
    if (e2 >= dy) err += dy, x0 += sx;
    if (e2 <= dx) err += dx, y0 += sy;
  }
}

/* No font in the host build: each character is a 14 px box (what a real board replaces with glyphs). */
static void hal_text(int x, int y, const char *s, size_t len, uint16_t color) {
  for (size_t i = 0; i < len; i++) {
    if (((unsigned char)s[i] & 0xc0) == 0x80) continue;
    if (s[i] != ' ') {
      for (int k = 0; k < 14; k++) plot(x + k, y, color), plot(x + k, y + 15, color);
      for (int k = 0; k < 16; k++) plot(x, y + k, color), plot(x + 13, y + k, color);
    }
    x += ((unsigned char)s[i] >= 0xe0) ? 18 : 10;
  }
}

static void hal_mono(int x, int y, int w, int h, const uint8_t *bits, uint16_t color, uint16_t bg) {
  for (int j = 0; j < h; j++)
    for (int i = 0; i < w; i++) {
      int k = j * w + i;
      plot(x + i, y + j, (bits[k >> 3] >> (7 - (k & 7))) & 1 ? color : bg);
    }
}

static void hal_flush(void) { fb_dirty = 1; }

static void write_fb(void) {
  if (!fb_path) return;
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", fb_path);
  FILE *f = fopen(tmp, "wb");
  if (!f) return;
  fprintf(f, "P6\n%d %d\n255\n", AC_SCREEN_W, AC_SCREEN_H);
  static uint8_t row[AC_SCREEN_W * 3];
  for (int y = 0; y < AC_SCREEN_H; y++) {
    for (int x = 0; x < AC_SCREEN_W; x++) {
      uint16_t p = fb[y * AC_SCREEN_W + x];
      row[x * 3] = (uint8_t)(((p >> 11) & 0x1f) * 255 / 31);
      row[x * 3 + 1] = (uint8_t)(((p >> 5) & 0x3f) * 255 / 63);
      row[x * 3 + 2] = (uint8_t)((p & 0x1f) * 255 / 31);
    }
    fwrite(row, 1, sizeof row, f);
  }
  fclose(f);
  rename(tmp, fb_path);
}

static void hal_gesture(char name, int times, int period, int amp) {
  if (verbose) fprintf(stderr, "[head] %s times=%d period=%d amp=%d\n", name == 'n' ? "nod" : "shake", times, period, amp);
}
static void hal_home(void) {
  if (verbose) fprintf(stderr, "[head] home\n");
}
static void hal_rest(void) {
  if (verbose) fprintf(stderr, "[head] rest (servos detached)\n");
}

static void on_usr1(int sig) {
  (void)sig;
  reboot_asked = 1;
}

int main(int argc, char **argv) {
  ac_config cfg = {"host-1.0.0", "agentcade-core-host", "HOST0001", 0x3f, 1, 1, 1, 1, AC_MAX_POINTS_PER_STROKE};
  int banner = 0;
  ac_hal hal = {hal_read, hal_write, now_ms, hal_random, hal_fill, hal_line, hal_disc, hal_text, hal_mono, hal_flush, hal_gesture, hal_home, hal_rest};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--fb") && i + 1 < argc) fb_path = argv[++i];
    else if (!strcmp(a, "--serial") && i + 1 < argc) cfg.serial = argv[++i];
    else if (!strcmp(a, "--no-shake")) cfg.shake = 0;
    else if (!strcmp(a, "--no-head")) cfg.nod = cfg.shake = 0;
    else if (!strcmp(a, "--no-draw")) cfg.draw = 0;
    else if (!strcmp(a, "--no-images")) cfg.images = 0;
    else if (!strcmp(a, "--max-points") && i + 1 < argc) cfg.max_points = (uint8_t)atoi(argv[++i]);
    else if (!strcmp(a, "--banner")) banner = 1;
    else if (!strcmp(a, "--verbose")) verbose = 1;
    else if (!strcmp(a, "--expressions") && i + 1 < argc) {
      static const char *names[] = {"neutral", "happy", "sorry", "thinking", "surprised", "sleepy"};
      cfg.expressions = 0;
      const char *list = argv[++i];
      for (int k = 0; k < 6; k++) {
        const char *p = strstr(list, names[k]);
        if (p) cfg.expressions |= (uint8_t)(1u << k);
      }
    } else {
      fprintf(stderr, "unknown option %s\n", a);
      return 2;
    }
  }
  if (!cfg.nod && !cfg.shake) {
    hal.head_gesture = NULL;
    hal.head_home = NULL;
    hal.head_rest = NULL;
  }
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  rng_state = (uint32_t)(ts.tv_nsec ^ (uint32_t)ts.tv_sec ^ (uint32_t)getpid() << 16) | 1u;
  signal(SIGUSR1, on_usr1);
  signal(SIGPIPE, SIG_IGN);
  fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
  /* Like a ROM banner: text before the first frame, ended by the lone 0x00 before the hello. */
  if (banner) hal_write((const uint8_t *)"agentcade-core host build\r\n", 27);
  ac_init(&core, &hal, &cfg);
  if (verbose) fprintf(stderr, "[core] %zu bytes, boot %lu\n", sizeof core, (unsigned long)core.boot);
  uint32_t last_write = 0;
  while (!eof) {
    struct pollfd p = {0, POLLIN, 0};
    poll(&p, 1, 2);
    if (reboot_asked) {
      reboot_asked = 0;
      ac_init(&core, &hal, &cfg);
      if (verbose) fprintf(stderr, "[core] rebooted, boot %lu\n", (unsigned long)core.boot);
    }
    ac_poll(&core);
    uint32_t now = now_ms();
    if (fb_dirty && now - last_write >= 40) {
      fb_dirty = 0;
      last_write = now;
      write_fb();
    }
  }
  if (fb_dirty) write_fb();
  return 0;
}
