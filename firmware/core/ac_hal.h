/*
 * The hardware abstraction layer of the Agentcade firmware core (docs/robot-protocol.md).
 * A board provides these functions; the core (ac_core.c) does everything else: framing, COBS,
 * CRC, duplicate memory, lanes, the drawing store, the screen model and sys.* behaviour.
 * All functions are called from one thread (the board's main loop), never from an interrupt.
 */
#ifndef AC_HAL_H
#define AC_HAL_H

#include <stddef.h>
#include <stdint.h>

/* Display size the core draws for (a round 240x240 panel; a square one works the same). */
#define AC_SCREEN_W 240
#define AC_SCREEN_H 240

typedef struct ac_hal {
  /* Serial (USB CDC-ACM). read: copies up to n received bytes into buf, returns how many (0 when
   * none, never blocks). write: queues all n bytes for sending (may block briefly on USB
   * back-pressure; must not drop bytes). */
  size_t (*serial_read)(uint8_t *buf, size_t n);
  void (*serial_write)(const uint8_t *buf, size_t n);

  /* Milliseconds since boot (wraps after 49 days; the core only uses differences). */
  uint32_t (*millis)(void);
  /* A random 32-bit number (the hello's boot id must differ at every boot). */
  uint32_t (*random32)(void);

  /* Display primitives, RGB565 colours. Drawing happens into the board's frame buffer or
   * straight to the panel; flush() is called once a frame is complete. */
  void (*display_fill)(uint16_t color);
  void (*display_line)(int x0, int y0, int x1, int y1, int width, uint16_t color);
  void (*display_disc)(int cx, int cy, int r, uint16_t color);
  /* One line of UTF-8 text starting at (x, y); a board without a font may draw boxes. */
  void (*display_text)(int x, int y, const char *utf8, size_t len, uint16_t color);
  /* A 1-bit image (MSB first, rows padded to no byte boundary: bit i = pixel i), 1 = color. */
  void (*display_mono)(int x, int y, int w, int h, const uint8_t *bits, uint16_t color, uint16_t bg);
  void (*display_flush)(void);

  /* The head. gesture: 'n' nod (pitch) or 's' shake (yaw), times, period (ms) and amplitude
   * (degrees); the board animates it on its own timer and the core tells it when to stop.
   * home: move to centre. rest: stop and detach (un-power) the servos. May be NULL (no head). */
  void (*head_gesture)(char name, int times, int period_ms, int amp_deg);
  void (*head_home)(void);
  void (*head_rest)(void);
} ac_hal;

#endif
