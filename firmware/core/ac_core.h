/*
 * The Agentcade robot firmware core: protocol v1 (docs/robot-protocol.md) in portable C99.
 * No heap: one `ac_core` holds every buffer (its size is fixed at compile time, see
 * ac_core_size()). A board fills an `ac_hal`, calls ac_init() once at boot and ac_poll() as
 * often as it can (every 1-5 ms) from its main loop.
 */
#ifndef AC_CORE_H
#define AC_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "ac_hal.h"
#include "ac_json.h"

/* Limits (the hello announces maxFrame and draw.maxPoints). */
#define AC_MAX_FRAME 1024        /* largest raw frame accepted (>= 1024) */
#define AC_RX_BLOCK (4096 + 32)  /* a longer block before its 0x00 is noise (§2.4) */
#define AC_MEMORY 16             /* distinct requests remembered for duplicates (§3.1) */
#define AC_HEAD_QUEUE 4          /* head lane: waiting commands before busy (§3.2) */
#define AC_SCREEN_QUEUE 64       /* screen lane: waiting commands before busy */
#define AC_MAX_POINTS_PER_STROKE 100
#define AC_STORE_STROKES 320     /* the drawing store: strokes kept (visible + queued) */
#define AC_STORE_POINTS 6144     /* the drawing store: points kept (2 bytes each) */
#define AC_TOKENS 520            /* JSON tokens per request (a 1024-byte frame needs at most 512) */
#define AC_REPLY 112             /* stored Ack / Done JSON per remembered request */
#define AC_CARDS 4               /* text/progress cards waiting in the screen lane */
#define AC_IMAGE_BYTES (240 * 240 / 8)
#define AC_TIMERS 16             /* immediate-lane Dones waiting for their time */

enum { AC_EXPR_NEUTRAL, AC_EXPR_HAPPY, AC_EXPR_SORRY, AC_EXPR_THINKING, AC_EXPR_SURPRISED, AC_EXPR_SLEEPY, AC_EXPR_COUNT };

typedef struct {
  const char *fw;
  const char *model;
  const char *serial;
  /* Bit i set: expression i (AC_EXPR_*) is supported. */
  uint8_t expressions;
  uint8_t nod, shake;
  uint8_t draw;
  uint8_t images;
  /* Points per draw.stroke announced (2-100). */
  uint8_t max_points;
} ac_config;

typedef struct {
  uint16_t seq, len, crc;
  uint8_t used, ack_len, done_len;
  char ack[AC_REPLY];
  char done[AC_REPLY];
} ac_memory;

typedef struct {
  char label[64];
  char text[204];
  int16_t current, total;
  uint8_t used, kind;
} ac_card;

typedef struct {
  uint16_t seq;
  uint8_t kind;
  uint32_t ms;
  /* kind-specific: gesture name/times/period/amp; stroke index; draw.begin base/colour/width/animate; card slot */
  int32_t a, b, c, d;
} ac_job;

typedef struct {
  ac_job q[AC_SCREEN_QUEUE];
  uint16_t head, count, limit;
  uint8_t busy;
  ac_job cur;
  uint32_t started, ends;
} ac_lane;

typedef struct ac_core {
  const ac_hal *hal;
  ac_config cfg;
  uint32_t boot;
  uint16_t evt_seq;
  uint32_t last_rx;
  uint8_t host_lost;

  /* receiving */
  uint8_t rx[AC_RX_BLOCK];
  size_t rx_len;
  uint8_t rx_overflow;
  uint8_t raw[AC_RX_BLOCK];

  /* sending */
  uint8_t tx_raw[AC_MAX_FRAME + 512];
  uint8_t tx_wire[AC_MAX_FRAME + 520];

  /* requests */
  acj_tok toks[AC_TOKENS];
  ac_memory mem[AC_MEMORY];
  uint8_t mem_next;
  struct { uint16_t seq; uint32_t due; int8_t mem; } timers[AC_TIMERS];

  /* lanes */
  ac_lane head_lane, screen_lane;

  /* the drawing store: strokes (offset into points, length), all the drawing's and queued ones */
  uint8_t points[AC_STORE_POINTS][2];
  uint16_t npoints;
  struct { uint16_t off, len; } strokes[AC_STORE_STROKES];
  uint16_t nstrokes;
  char draw_id[36];      /* id of the latest draw.begin received (strokes are checked against it) */
  uint8_t draw_animate;  /* of the latest draw.begin received */

  /* the screen model: content + face overlay */
  uint8_t content;       /* AC_CONTENT_* */
  int8_t face;           /* -1: no overlay */
  uint16_t vis_base, vis_started, vis_drawn;  /* strokes of the drawing shown (from vis_base) */
  uint16_t vis_color;
  uint8_t vis_width, vis_complete;
  char vis_label[64];
  ac_card cards[AC_CARDS];
  ac_card vis_card;
  uint8_t image_rx[AC_IMAGE_BYTES];
  uint8_t image_shown[AC_IMAGE_BYTES];
  int16_t image_w, image_h;
  struct { uint8_t active; uint16_t seq; int8_t mem; int16_t w, h; uint32_t len, got, last; } blob;
  uint8_t dirty;
  uint32_t last_frame;
} ac_core;

enum { AC_CONTENT_IDLE, AC_CONTENT_DRAWING, AC_CONTENT_PROGRESS, AC_CONTENT_TEXT, AC_CONTENT_IMAGE };

/* Boots: clears everything, sends the lone 0x00 and the hello. Call again to "reboot". */
void ac_init(ac_core *c, const ac_hal *hal, const ac_config *cfg);
/* Reads what the serial port has, runs the lanes and timers, redraws the screen when needed. */
void ac_poll(ac_core *c);
/* Feeds received bytes directly (for boards whose USB stack pushes data); ac_poll() calls it too. */
void ac_feed(ac_core *c, const uint8_t *bytes, size_t n);

/* Pure helpers, also used by tests. */
uint16_t ac_crc16(const uint8_t *p, size_t n);
size_t ac_cobs_encode(const uint8_t *in, size_t n, uint8_t *out);
/* Returns the decoded length, or (size_t)-1 when the block is not valid COBS. */
size_t ac_cobs_decode(const uint8_t *in, size_t n, uint8_t *out);

#endif
