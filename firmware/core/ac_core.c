/*
 * Protocol v1, device side (docs/robot-protocol.md): framing (§2), requests, acks, dones and
 * duplicates (§3), the hello (§4), heartbeat and watchdog (§5), the screen model (§6) and the
 * commands (§7). Timings are the reference simulator's (src/robot/sim/motion.ts); a board with
 * slower servos reports its own in the Ack.
 */
#include "ac_core.h"

#include <stdio.h>
#include <string.h>

enum { T_REQUEST = 1, T_ACK, T_DONE, T_EVENT, T_PING, T_PONG, T_BLOB };
enum { J_GESTURE = 1, J_HOME, J_BEGIN, J_STROKE, J_END, J_CARD, J_IMAGE };

/* Durations (ms), as in src/robot/sim/motion.ts. */
#define MS_FACE_SET 150
#define MS_FACE_CLEAR 100
#define MS_IDLE 300
#define MS_STOP 50
#define MS_HOME 300
#define MS_BEGIN 30
#define MS_END 10
#define MS_CARD 80
#define MS_IMAGE 120
#define MS_STROKE_BASE 40
#define MS_STROKE_POINT 12
#define MS_STROKE_FAST 5
#define WATCHDOG_MS 5000
#define BLOB_STALL_MS 1000
#define FRAME_MS 30

static const char *const EXPR_NAMES[AC_EXPR_COUNT] = {"neutral", "happy", "sorry", "thinking", "surprised", "sleepy"};

/* ---- CRC and COBS ------------------------------------------------------------------------ */

uint16_t ac_crc16(const uint8_t *p, size_t n) {
  uint16_t crc = 0xffff;
  while (n--) {
    crc ^= (uint16_t)((uint16_t)(*p++) << 8);
    for (int i = 0; i < 8; i++) crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
  }
  return crc;
}

size_t ac_cobs_encode(const uint8_t *in, size_t n, uint8_t *out) {
  size_t code_at = 0, o = 1;
  uint8_t code = 1;
  for (size_t i = 0; i < n; i++) {
    if (in[i] == 0) {
      out[code_at] = code;
      code_at = o++;
      code = 1;
    } else {
      out[o++] = in[i];
      if (++code == 0xff) {
        out[code_at] = code;
        code_at = o++;
        code = 1;
      }
    }
  }
  out[code_at] = code;
  return o;
}

size_t ac_cobs_decode(const uint8_t *in, size_t n, uint8_t *out) {
  size_t i = 0, o = 0;
  while (i < n) {
    uint8_t code = in[i];
    if (code == 0 || i + code > n) return (size_t)-1;
    i++;
    for (uint8_t k = 1; k < code; k++) {
      if (in[i] == 0) return (size_t)-1;
      out[o++] = in[i++];
    }
    if (code != 0xff && i < n) out[o++] = 0;
  }
  return o;
}

/* ---- sending ------------------------------------------------------------------------------ */

static void send_frame(ac_core *c, uint8_t type, uint16_t seq, const void *payload, size_t len) {
  if (len > sizeof c->tx_raw - 6) return;
  c->tx_raw[0] = 1;
  c->tx_raw[1] = type;
  c->tx_raw[2] = (uint8_t)(seq & 0xff);
  c->tx_raw[3] = (uint8_t)(seq >> 8);
  if (len) memcpy(c->tx_raw + 4, payload, len);
  uint16_t crc = ac_crc16(c->tx_raw, len + 4);
  c->tx_raw[len + 4] = (uint8_t)(crc & 0xff);
  c->tx_raw[len + 5] = (uint8_t)(crc >> 8);
  size_t w = ac_cobs_encode(c->tx_raw, len + 6, c->tx_wire);
  c->tx_wire[w++] = 0;
  c->hal->serial_write(c->tx_wire, w);
}

/* Appends `s` JSON-escaped to buf (at *o, capacity cap); stops quietly when full. */
static void json_escape(char *buf, size_t cap, size_t *o, const char *s) {
  for (; *s && *o + 7 < cap; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') {
      buf[(*o)++] = '\\';
      buf[(*o)++] = (char)ch;
    } else if (ch < 0x20) {
      *o += (size_t)snprintf(buf + *o, cap - *o, "\\u%04x", ch);
    } else buf[(*o)++] = (char)ch;
  }
  buf[*o] = 0;
}

static void send_hello(ac_core *c) {
  char b[600];
  size_t o = 0;
  o += (size_t)snprintf(b + o, sizeof b - o, "{\"event\":\"hello\",\"proto\":1,\"fw\":\"");
  json_escape(b, sizeof b, &o, c->cfg.fw);
  o += (size_t)snprintf(b + o, sizeof b - o, "\",\"model\":\"");
  json_escape(b, sizeof b, &o, c->cfg.model);
  o += (size_t)snprintf(b + o, sizeof b - o, "\",\"serial\":\"");
  json_escape(b, sizeof b, &o, c->cfg.serial);
  o += (size_t)snprintf(b + o, sizeof b - o, "\",\"boot\":%lu,\"screen\":{\"w\":%d,\"h\":%d,\"shape\":\"round\",\"fmt\":\"rgb565\"},\"servos\":[", (unsigned long)c->boot, AC_SCREEN_W, AC_SCREEN_H);
  int first = 1;
  if (c->cfg.nod) o += (size_t)snprintf(b + o, sizeof b - o, "%s\"pitch\"", first ? "" : ","), first = 0;
  if (c->cfg.shake) o += (size_t)snprintf(b + o, sizeof b - o, "%s\"yaw\"", first ? "" : ","), first = 0;
  o += (size_t)snprintf(b + o, sizeof b - o, "],\"expressions\":[");
  first = 1;
  for (int i = 0; i < AC_EXPR_COUNT; i++)
    if (c->cfg.expressions & (1u << i)) o += (size_t)snprintf(b + o, sizeof b - o, "%s\"%s\"", first ? "" : ",", EXPR_NAMES[i]), first = 0;
  o += (size_t)snprintf(b + o, sizeof b - o, "],\"gestures\":[");
  first = 1;
  if (c->cfg.nod) o += (size_t)snprintf(b + o, sizeof b - o, "\"nod\""), first = 0;
  if (c->cfg.shake) o += (size_t)snprintf(b + o, sizeof b - o, "%s\"shake\"", first ? "" : ",");
  o += (size_t)snprintf(b + o, sizeof b - o, "],\"draw\":{\"strokes\":%s,\"maxPoints\":%d},\"images\":[%s],\"maxFrame\":%d}", c->cfg.draw ? "true" : "false", c->cfg.max_points,
                        c->cfg.images ? "\"mono1\"" : "", AC_MAX_FRAME);
  if (o >= sizeof b) return;
  c->evt_seq = c->evt_seq >= 0xffff ? 1 : (uint16_t)(c->evt_seq + 1);
  /* A lone delimiter first: ends any text in the host's buffer so the hello is not glued to it. */
  const uint8_t zero = 0;
  c->hal->serial_write(&zero, 1);
  send_frame(c, T_EVENT, c->evt_seq, b, o);
}

/* ---- the duplicate memory ----------------------------------------------------------------- */

static int mem_find(ac_core *c, uint16_t seq) {
  /* The newest entry with this seq (a seq is reused only after 65535 others). */
  for (int k = 0; k < AC_MEMORY; k++) {
    int i = (c->mem_next + AC_MEMORY - 1 - k) % AC_MEMORY;
    if (c->mem[i].used && c->mem[i].seq == seq) return i;
  }
  return -1;
}

static int mem_add(ac_core *c, uint16_t seq, uint16_t len, uint16_t crc) {
  int i = c->mem_next;
  c->mem_next = (uint8_t)((c->mem_next + 1) % AC_MEMORY);
  ac_memory *m = &c->mem[i];
  m->used = 1;
  m->seq = seq;
  m->len = len;
  m->crc = crc;
  m->ack_len = m->done_len = 0;
  return i;
}

static void reply(ac_core *c, int mem, uint8_t type, uint16_t seq, const char *body) {
  size_t len = strlen(body);
  if (mem >= 0 && len < AC_REPLY) {
    ac_memory *m = &c->mem[mem];
    /* Only if the slot still belongs to this request (16 newer ones may have replaced it). */
    if (m->used && m->seq == seq) {
      if (type == T_ACK) {
        memcpy(m->ack, body, len);
        m->ack_len = (uint8_t)len;
      } else {
        memcpy(m->done, body, len);
        m->done_len = (uint8_t)len;
      }
    }
  }
  send_frame(c, type, seq, body, len);
}

static void ack(ac_core *c, int mem, uint16_t seq, uint32_t ms) {
  char b[32];
  snprintf(b, sizeof b, "{\"ms\":%lu}", (unsigned long)ms);
  reply(c, mem, T_ACK, seq, b);
}

static void nak(ac_core *c, int mem, uint16_t seq, const char *code, const char *msg) {
  char b[AC_REPLY];
  size_t o = (size_t)snprintf(b, sizeof b, "{\"error\":{\"code\":\"%s\",\"msg\":\"", code);
  json_escape(b, sizeof b - 4, &o, msg);
  snprintf(b + o, sizeof b - o, "\"}}");
  reply(c, mem, T_ACK, seq, b);
}

static void done(ac_core *c, int mem, uint16_t seq, const char *code, const char *msg) {
  if (!code) {
    reply(c, mem, T_DONE, seq, "{\"ok\":true}");
    return;
  }
  char b[AC_REPLY];
  size_t o = (size_t)snprintf(b, sizeof b, "{\"ok\":false,\"error\":{\"code\":\"%s\",\"msg\":\"", code);
  json_escape(b, sizeof b - 4, &o, msg);
  snprintf(b + o, sizeof b - o, "\"}}");
  reply(c, mem, T_DONE, seq, b);
}

/* An immediate-lane command: Ack now with ms, Done after ms. */
static void finish_after(ac_core *c, int mem, uint16_t seq, uint32_t ms) {
  ack(c, mem, seq, ms);
  for (int i = 0; i < AC_TIMERS; i++) {
    if (c->timers[i].mem < 0) {
      c->timers[i].seq = seq;
      c->timers[i].mem = (int8_t)mem;
      c->timers[i].due = c->hal->millis() + ms;
      return;
    }
  }
  done(c, mem, seq, NULL, NULL); /* no timer free: done at once (still after the Ack) */
}

/* ---- lanes -------------------------------------------------------------------------------- */

static uint32_t lane_wait(ac_core *c, const ac_lane *l) {
  uint32_t now = c->hal->millis(), w = 0;
  if (l->busy && (int32_t)(l->ends - now) > 0) w += l->ends - now;
  for (uint16_t k = 0; k < l->count; k++) w += l->q[(l->head + k) % AC_SCREEN_QUEUE].ms;
  return w;
}

static void job_start(ac_core *c, ac_job *j);
static void job_finish(ac_core *c, ac_job *j);

static void lane_pump(ac_core *c, ac_lane *l) {
  if (l->busy || l->count == 0) return;
  l->cur = l->q[l->head];
  l->head = (uint16_t)((l->head + 1) % AC_SCREEN_QUEUE);
  l->count--;
  l->busy = 1;
  l->started = c->hal->millis();
  l->ends = l->started + l->cur.ms;
  job_start(c, &l->cur);
}

/* Queues a job (Ack with the lane's wait + its time), or NAKs busy; returns 0 when refused. */
static int enqueue(ac_core *c, ac_lane *l, int mem, const ac_job *j, int send_ack) {
  if (send_ack && l->count >= l->limit) {
    nak(c, mem, j->seq, "busy", "queue full");
    return 0;
  }
  uint32_t wait = lane_wait(c, l);
  l->q[(l->head + l->count) % AC_SCREEN_QUEUE] = *j;
  l->count++;
  if (send_ack) ack(c, mem, j->seq, wait + j->ms);
  lane_pump(c, l);
  return 1;
}

static void lane_run(ac_core *c, ac_lane *l) {
  uint32_t now = c->hal->millis();
  while (l->busy && (int32_t)(now - l->ends) >= 0) {
    ac_job j = l->cur;
    l->busy = 0;
    job_finish(c, &j);
    done(c, mem_find(c, j.seq), j.seq, NULL, NULL);
    lane_pump(c, l);
  }
}

static void release_card(ac_core *c, const ac_job *j) {
  if (j->kind == J_CARD && j->a >= 0 && j->a < AC_CARDS) c->cards[j->a].used = 0;
}

/* Stops motion and drops both lanes (each dropped command: Done stopped). A drawing being drawn is completed at once. */
static void stop_all(ac_core *c) {
  ac_lane *lanes[2] = {&c->head_lane, &c->screen_lane};
  for (int k = 0; k < 2; k++) {
    ac_lane *l = lanes[k];
    if (l->busy) {
      l->busy = 0;
      release_card(c, &l->cur);
      done(c, mem_find(c, l->cur.seq), l->cur.seq, "stopped", "sys.stop or sys.idle");
    }
    while (l->count) {
      ac_job *j = &l->q[l->head];
      l->head = (uint16_t)((l->head + 1) % AC_SCREEN_QUEUE);
      l->count--;
      release_card(c, j);
      done(c, mem_find(c, j->seq), j->seq, "stopped", "sys.stop or sys.idle");
    }
  }
  if (c->blob.active) {
    c->blob.active = 0;
    done(c, c->blob.mem, c->blob.seq, "stopped", "sys.stop or sys.idle");
  }
  if (c->hal->head_home) c->hal->head_home();
  if (c->content == AC_CONTENT_DRAWING) c->vis_drawn = c->vis_started;
  c->dirty = 1;
}

/* ---- the drawing store -------------------------------------------------------------------- */

/* Forgets strokes before `base` (a new drawing starts there): moves the rest down, renumbers queued jobs. */
static void store_drop_before(ac_core *c, uint16_t base) {
  if (base == 0 || base > c->nstrokes) return;
  uint16_t poff = base < c->nstrokes ? c->strokes[base].off : c->npoints;
  memmove(c->points, c->points[poff], (size_t)(c->npoints - poff) * 2);
  c->npoints = (uint16_t)(c->npoints - poff);
  for (uint16_t i = base; i < c->nstrokes; i++) {
    c->strokes[i - base].off = (uint16_t)(c->strokes[i].off - poff);
    c->strokes[i - base].len = c->strokes[i].len;
  }
  c->nstrokes = (uint16_t)(c->nstrokes - base);
  ac_lane *l = &c->screen_lane;
  for (uint16_t k = 0; k < l->count; k++) {
    ac_job *j = &l->q[(l->head + k) % AC_SCREEN_QUEUE];
    if (j->kind == J_STROKE || j->kind == J_BEGIN) j->a -= base;
  }
}

static uint16_t rgb565(uint32_t rgb) { return (uint16_t)(((rgb >> 8) & 0xf800) | ((rgb >> 5) & 0x07e0) | ((rgb >> 3) & 0x001f)); }

static void job_start(ac_core *c, ac_job *j) {
  switch (j->kind) {
    case J_GESTURE:
      if (c->hal->head_gesture) c->hal->head_gesture((char)j->a, (int)j->b, (int)j->c, (int)j->d);
      break;
    case J_HOME:
      if (c->hal->head_home) c->hal->head_home();
      break;
    case J_BEGIN: {
      uint16_t base = (uint16_t)j->a;
      store_drop_before(c, base);
      c->content = AC_CONTENT_DRAWING;
      c->vis_base = 0;
      c->vis_started = c->vis_drawn = 0;
      c->vis_color = (uint16_t)j->b;
      c->vis_width = (uint8_t)j->c;
      c->vis_complete = 0;
      c->vis_label[0] = 0;
      break;
    }
    case J_STROKE:
      if (c->content == AC_CONTENT_DRAWING) c->vis_started++;
      break;
    case J_CARD:
      if (j->a >= 0 && j->a < AC_CARDS) {
        c->vis_card = c->cards[j->a];
        c->cards[j->a].used = 0;
        c->content = c->vis_card.kind;
      }
      break;
    case J_IMAGE:
      memcpy(c->image_shown, c->image_rx, AC_IMAGE_BYTES);
      c->image_w = (int16_t)j->a;
      c->image_h = (int16_t)j->b;
      c->content = AC_CONTENT_IMAGE;
      break;
    default: break;
  }
  c->dirty = 1;
}

static void job_finish(ac_core *c, ac_job *j) {
  if (j->kind == J_STROKE && c->content == AC_CONTENT_DRAWING && c->vis_drawn < c->vis_started) c->vis_drawn++;
  if (j->kind == J_END && c->content == AC_CONTENT_DRAWING) {
    c->vis_complete = 1;
    if (j->a >= 0 && j->a < AC_CARDS) {
      memcpy(c->vis_label, c->cards[j->a].label, sizeof c->vis_label);
      c->cards[j->a].used = 0;
    }
  }
  if (j->kind == J_GESTURE && c->hal->head_home) c->hal->head_home();
  c->dirty = 1;
}

static int card_slot(ac_core *c) {
  for (int i = 0; i < AC_CARDS; i++)
    if (!c->cards[i].used) {
      memset(&c->cards[i], 0, sizeof c->cards[i]);
      c->cards[i].used = 1;
      return i;
    }
  return -1;
}

/* ---- commands (§7) ------------------------------------------------------------------------ */

typedef struct {
  ac_core *c;
  const char *js;
  int params; /* token of the params object, or -1 */
  uint16_t seq;
  int mem;
} req;

/* Param helpers: 0 absent, 1 present and valid, -1 present but wrong. */
static int p_tok(const req *r, const char *key) { return r->params < 0 ? -1 : acj_get(r->js, r->c->toks, r->params, key); }

static int p_int(const req *r, const char *key, int32_t lo, int32_t hi, int32_t *out) {
  int t = p_tok(r, key);
  if (t < 0) return 0;
  int32_t v;
  if (!acj_int(r->js, &r->c->toks[t], &v) || v < lo || v > hi) return -1;
  *out = v;
  return 1;
}

/* A string param of at most `max` UTF-8 bytes (decoded). */
static int expr_index(const char *s) {
  for (int i = 0; i < AC_EXPR_COUNT; i++)
    if (strcmp(s, EXPR_NAMES[i]) == 0) return i;
  return -1;
}

static void m_face_set(req *r) {
  ac_core *c = r->c;
  int t = p_tok(r, "expr");
  if (t < 0 || c->toks[t].type != ACJ_STRING) { nak(c, r->mem, r->seq, "bad_params", "expr must be a string"); return; }
  char e[40];
  int i = acj_str(r->js, &c->toks[t], e, sizeof e) >= 0 ? expr_index(e) : -1;
  if (i < 0 || !(c->cfg.expressions & (1u << i))) {
    char m[64];
    snprintf(m, sizeof m, "no expression %s", i < 0 && acj_str(r->js, &c->toks[t], e, sizeof e) < 0 ? "(too long)" : e);
    { nak(c, r->mem, r->seq, "unsupported", m); return; }
  }
  c->face = (int8_t)i;
  c->dirty = 1;
  finish_after(c, r->mem, r->seq, MS_FACE_SET);
}

static void m_gesture(req *r) {
  ac_core *c = r->c;
  int t = p_tok(r, "name");
  if (t < 0 || c->toks[t].type != ACJ_STRING) { nak(c, r->mem, r->seq, "bad_params", "name must be a string"); return; }
  int nod = acj_eq(r->js, &c->toks[t], "nod"), shake = acj_eq(r->js, &c->toks[t], "shake");
  if (!((nod && c->cfg.nod) || (shake && c->cfg.shake))) {
    char name[32], m[64];
    if (acj_str(r->js, &c->toks[t], name, sizeof name) < 0) strcpy(name, "(too long)");
    snprintf(m, sizeof m, "no gesture %s", name);
    { nak(c, r->mem, r->seq, "unsupported", m); return; }
  }
  int32_t times = 2, period = nod ? 450 : 500, amp = nod ? 15 : 25;
  if (p_int(r, "times", 1, 5, &times) < 0 || p_int(r, "period", 250, 2000, &period) < 0 || p_int(r, "amp", 1, 45, &amp) < 0)
    { nak(c, r->mem, r->seq, "bad_params", "times 1-5, period 250-2000, amp 1-45"); return; }
  ac_job j = {r->seq, J_GESTURE, (uint32_t)(times * period), nod ? 'n' : 's', times, period, amp};
  enqueue(c, &c->head_lane, r->mem, &j, 1);
}

static int is_hex_colour(const char *s) {
  if (strlen(s) != 7 || s[0] != '#') return 0;
  for (int i = 1; i < 7; i++) {
    char ch = s[i];
    if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F'))) return 0;
  }
  return 1;
}

static void m_draw_begin(req *r) {
  ac_core *c = r->c;
  char id[36], colour[16] = "#222222";
  int t = p_tok(r, "id");
  if (t < 0 || c->toks[t].type != ACJ_STRING || acj_str(r->js, &c->toks[t], id, 33) <= 0) { nak(c, r->mem, r->seq, "bad_params", "id: 1-32 UTF-8 bytes"); return; }
  t = p_tok(r, "color");
  if (t >= 0 && (c->toks[t].type != ACJ_STRING || acj_str(r->js, &c->toks[t], colour, sizeof colour) < 0 || !is_hex_colour(colour)))
    { nak(c, r->mem, r->seq, "bad_params", "color must be #rrggbb"); return; }
  int32_t width = 6;
  if (p_int(r, "width", 1, 20, &width) < 0) { nak(c, r->mem, r->seq, "bad_params", "width: an integer 1-20"); return; }
  t = p_tok(r, "animate");
  if (t >= 0 && c->toks[t].type != ACJ_TRUE && c->toks[t].type != ACJ_FALSE) { nak(c, r->mem, r->seq, "bad_params", "animate must be true or false"); return; }
  if (c->screen_lane.count >= c->screen_lane.limit) { nak(c, r->mem, r->seq, "busy", "queue full"); return; }
  unsigned long rgb = 0;
  sscanf(colour + 1, "%lx", &rgb);
  strcpy(c->draw_id, id);
  c->draw_animate = !(t >= 0 && c->toks[t].type == ACJ_FALSE);
  ac_job j = {r->seq, J_BEGIN, MS_BEGIN, c->nstrokes, rgb565((uint32_t)rgb), width, 0};
  enqueue(c, &c->screen_lane, r->mem, &j, 1);
}

static int same_drawing(req *r) {
  char id[36];
  int t = p_tok(r, "id");
  return r->c->draw_id[0] && t >= 0 && r->c->toks[t].type == ACJ_STRING && acj_str(r->js, &r->c->toks[t], id, 33) > 0 && strcmp(id, r->c->draw_id) == 0;
}

static void m_draw_stroke(req *r) {
  ac_core *c = r->c;
  if (!same_drawing(r)) { nak(c, r->mem, r->seq, "bad_params", "stroke for a drawing that was not begun"); return; }
  int t = p_tok(r, "pts");
  int max = c->cfg.max_points;
  const acj_tok *toks = c->toks;
  if (t < 0 || toks[t].type != ACJ_ARRAY || toks[t].size < 1 || toks[t].size > max) goto bad;
  int k = t + 1;
  for (int i = 0; i < toks[t].size; i++) {
    int32_t x, y;
    if (toks[k].type != ACJ_ARRAY || toks[k].size != 2 || !acj_int(r->js, &toks[k + 1], &x) || !acj_int(r->js, &toks[k + 2], &y) || x < 0 || x > 239 || y < 0 || y > 239) goto bad;
    k = toks[k].next;
  }
  if (c->screen_lane.count >= c->screen_lane.limit) { nak(c, r->mem, r->seq, "busy", "queue full"); return; }
  if (c->nstrokes >= AC_STORE_STROKES || c->npoints + toks[t].size > AC_STORE_POINTS) { nak(c, r->mem, r->seq, "busy", "drawing store full"); return; }
  c->strokes[c->nstrokes].off = c->npoints;
  c->strokes[c->nstrokes].len = toks[t].size;
  k = t + 1;
  for (int i = 0; i < toks[t].size; i++) {
    int32_t x = 0, y = 0;
    acj_int(r->js, &toks[k + 1], &x);
    acj_int(r->js, &toks[k + 2], &y);
    c->points[c->npoints][0] = (uint8_t)x;
    c->points[c->npoints][1] = (uint8_t)y;
    c->npoints++;
    k = toks[k].next;
  }
  /* Hidden under a face, or asked not to animate: the stroke appears at once. */
  uint32_t ms = c->draw_animate && c->face < 0 ? MS_STROKE_BASE + MS_STROKE_POINT * (uint32_t)toks[t].size : MS_STROKE_FAST;
  ac_job j = {r->seq, J_STROKE, ms, c->nstrokes, 0, 0, 0};
  c->nstrokes++;
  enqueue(c, &c->screen_lane, r->mem, &j, 1);
  return;
bad: {
  char m[64];
  snprintf(m, sizeof m, "pts: 1-%d points [x,y] in 0-239", max);
  nak(c, r->mem, r->seq, "bad_params", m);
}
}

static void m_draw_end(req *r) {
  ac_core *c = r->c;
  if (!same_drawing(r)) { nak(c, r->mem, r->seq, "bad_params", "end for a drawing that was not begun"); return; }
  char label[64];
  int lt = p_tok(r, "label");
  if (lt >= 0 && (c->toks[lt].type != ACJ_STRING || acj_str(r->js, &c->toks[lt], label, 61) < 0)) { nak(c, r->mem, r->seq, "bad_params", "label: a string of at most 60 UTF-8 bytes"); return; }
  int slot = -1;
  if (lt >= 0) {
    slot = card_slot(c);
    if (slot < 0) { nak(c, r->mem, r->seq, "busy", "queue full"); return; }
    strcpy(c->cards[slot].label, label);
  }
  ac_job j = {r->seq, J_END, MS_END, slot, 0, 0, 0};
  if (!enqueue(c, &c->screen_lane, r->mem, &j, 1) && slot >= 0) c->cards[slot].used = 0;
}

static void m_progress(req *r) {
  ac_core *c = r->c;
  int32_t cur = 0, total = 0;
  if (p_int(r, "current", 0, 999, &cur) != 1 || p_int(r, "total", 1, 999, &total) != 1) { nak(c, r->mem, r->seq, "bad_params", "current 0-999, total 1-999"); return; }
  char label[64] = "";
  int lt = p_tok(r, "label");
  if (lt >= 0 && (c->toks[lt].type != ACJ_STRING || acj_str(r->js, &c->toks[lt], label, 61) < 0)) { nak(c, r->mem, r->seq, "bad_params", "label: a string of at most 60 UTF-8 bytes"); return; }
  if (c->screen_lane.count >= c->screen_lane.limit) { nak(c, r->mem, r->seq, "busy", "queue full"); return; }
  int slot = card_slot(c);
  if (slot < 0) { nak(c, r->mem, r->seq, "busy", "queue full"); return; }
  ac_card *k = &c->cards[slot];
  k->kind = AC_CONTENT_PROGRESS;
  k->current = (int16_t)cur;
  k->total = (int16_t)total;
  strcpy(k->label, label);
  ac_job j = {r->seq, J_CARD, MS_CARD, slot, 0, 0, 0};
  enqueue(c, &c->screen_lane, r->mem, &j, 1);
}

static void m_text(req *r) {
  ac_core *c = r->c;
  char text[204];
  int t = p_tok(r, "text");
  if (t < 0 || c->toks[t].type != ACJ_STRING || acj_str(r->js, &c->toks[t], text, 201) < 0) { nak(c, r->mem, r->seq, "bad_params", "text: at most 200 UTF-8 bytes"); return; }
  if (c->screen_lane.count >= c->screen_lane.limit) { nak(c, r->mem, r->seq, "busy", "queue full"); return; }
  int slot = card_slot(c);
  if (slot < 0) { nak(c, r->mem, r->seq, "busy", "queue full"); return; }
  c->cards[slot].kind = AC_CONTENT_TEXT;
  strcpy(c->cards[slot].text, text);
  ac_job j = {r->seq, J_CARD, MS_CARD, slot, 0, 0, 0};
  enqueue(c, &c->screen_lane, r->mem, &j, 1);
}

static void m_image(req *r) {
  ac_core *c = r->c;
  int t = p_tok(r, "fmt");
  if (!c->cfg.images || t < 0 || !acj_eq(r->js, &c->toks[t], "mono1")) { nak(c, r->mem, r->seq, "unsupported", "fmt must be mono1"); return; }
  int32_t w = 0, h = 0, len = 0;
  if (p_int(r, "w", 1, 240, &w) != 1 || p_int(r, "h", 1, 240, &h) != 1 || p_int(r, "len", 0, AC_IMAGE_BYTES, &len) != 1 || len != (w * h + 7) / 8)
    { nak(c, r->mem, r->seq, "bad_params", "w,h 1-240 and len = ceil(w*h/8)"); return; }
  if (c->blob.active) { nak(c, r->mem, r->seq, "busy", "an image is being received"); return; }
  /* At worst every Blob arrives just before the stall timer fires; then the image waits its turn. */
  ack(c, r->mem, r->seq, lane_wait(c, &c->screen_lane) + BLOB_STALL_MS + MS_IMAGE);
  c->blob.active = 1;
  c->blob.seq = r->seq;
  c->blob.mem = (int8_t)r->mem;
  c->blob.w = (int16_t)w;
  c->blob.h = (int16_t)h;
  c->blob.len = (uint32_t)len;
  c->blob.got = 0;
  c->blob.last = c->hal->millis();
}

static void on_blob(ac_core *c, uint16_t seq, const uint8_t *p, size_t n) {
  if (!c->blob.active || seq != c->blob.seq || n < 4) return;
  uint32_t off = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  size_t len = n - 4;
  if (off != c->blob.got || off + len > c->blob.len) return; /* out of order or a duplicate: wait for the stall timer */
  memcpy(c->image_rx + off, p + 4, len);
  c->blob.got += (uint32_t)len;
  c->blob.last = c->hal->millis();
  if (c->blob.got < c->blob.len) return;
  c->blob.active = 0;
  /* All bytes are here: the image takes its turn in the screen lane (already acked, never refused). */
  ac_job j = {seq, J_IMAGE, MS_IMAGE, c->blob.w, c->blob.h, 0, 0};
  enqueue(c, &c->screen_lane, -1, &j, 0);
}

static void execute(ac_core *c, req *r, int method) {
  const char *js = r->js;
  const acj_tok *m = &c->toks[method];
  if (acj_eq(js, m, "sys.hello")) {
    /* A new host session: forget every earlier request, remember only this one. */
    ac_memory keep = c->mem[r->mem];
    memset(c->mem, 0, sizeof c->mem);
    c->mem[0] = keep;
    c->mem_next = 1;
    r->mem = 0;
    ack(c, r->mem, r->seq, 0);
    send_hello(c);
    done(c, r->mem, r->seq, NULL, NULL);
  } else if (acj_eq(js, m, "sys.stop")) {
    stop_all(c);
    finish_after(c, r->mem, r->seq, MS_STOP);
  } else if (acj_eq(js, m, "sys.idle")) {
    stop_all(c);
    c->face = -1;
    c->content = AC_CONTENT_IDLE;
    finish_after(c, r->mem, r->seq, MS_IDLE);
  } else if (acj_eq(js, m, "face.set")) {
    m_face_set(r);
  } else if (acj_eq(js, m, "face.clear")) {
    c->face = -1;
    c->dirty = 1;
    finish_after(c, r->mem, r->seq, MS_FACE_CLEAR);
  } else if (acj_eq(js, m, "head.gesture")) {
    m_gesture(r);
  } else if (acj_eq(js, m, "head.home")) {
    ac_job j = {r->seq, J_HOME, MS_HOME, 0, 0, 0, 0};
    enqueue(c, &c->head_lane, r->mem, &j, 1);
  } else if (c->cfg.draw && acj_eq(js, m, "draw.begin")) {
    m_draw_begin(r);
  } else if (c->cfg.draw && acj_eq(js, m, "draw.stroke")) {
    m_draw_stroke(r);
  } else if (c->cfg.draw && acj_eq(js, m, "draw.end")) {
    m_draw_end(r);
  } else if (acj_eq(js, m, "screen.progress")) {
    m_progress(r);
  } else if (acj_eq(js, m, "screen.text")) {
    m_text(r);
  } else if (acj_eq(js, m, "screen.image")) {
    m_image(r);
  } else {
    char name[48], msg[64];
    if (acj_str(js, m, name, sizeof name) < 0) strcpy(name, "(too long)");
    snprintf(msg, sizeof msg, "%s", name);
    nak(c, r->mem, r->seq, "unknown_method", msg);
  }
}

static void on_request(ac_core *c, uint16_t seq, const uint8_t *payload, size_t n) {
  uint16_t crc = ac_crc16(payload, n);
  int prev = mem_find(c, seq);
  const char *js = (const char *)payload;
  int count = acj_parse(js, n, c->toks, AC_TOKENS);
  int method = count > 0 && c->toks[0].type == ACJ_OBJECT ? acj_get(js, c->toks, 0, "method") : -1;
  int hello = method >= 0 && acj_eq(js, &c->toks[method], "sys.hello");
  /* A repeat of a remembered request (same seq, length and CRC) is a retransmission: answer again,
   * never run twice, take no new slot. sys.hello is always answered (it is idempotent). */
  if (prev >= 0 && c->mem[prev].len == n && c->mem[prev].crc == crc && !hello) {
    ac_memory *m = &c->mem[prev];
    if (m->ack_len) send_frame(c, T_ACK, seq, m->ack, m->ack_len);
    if (m->done_len) send_frame(c, T_DONE, seq, m->done, m->done_len);
    return;
  }
  req r = {c, js, -1, seq, mem_add(c, seq, (uint16_t)n, crc)};
  if (method < 0 || c->toks[method].type != ACJ_STRING) { nak(c, r.mem, seq, "bad_json", "payload is not {method, params}"); return; }
  int params = acj_get(js, c->toks, 0, "params");
  r.params = params >= 0 && c->toks[params].type == ACJ_OBJECT ? params : -1;
  execute(c, &r, method);
}

/* ---- receiving ---------------------------------------------------------------------------- */

static void on_block(ac_core *c) {
  size_t n = ac_cobs_decode(c->rx, c->rx_len, c->raw);
  if (n == (size_t)-1 || n < 6) return;
  uint16_t crc = (uint16_t)(c->raw[n - 2] | c->raw[n - 1] << 8);
  if (ac_crc16(c->raw, n - 2) != crc || c->raw[0] != 1) return;
  uint8_t type = c->raw[1];
  if (type < T_REQUEST || type > T_BLOB) return;
  uint16_t seq = (uint16_t)(c->raw[2] | c->raw[3] << 8);
  c->last_rx = c->hal->millis();
  c->host_lost = 0;
  const uint8_t *payload = c->raw + 4;
  size_t len = n - 6;
  if (type == T_PING) send_frame(c, T_PONG, seq, NULL, 0);
  else if (type == T_REQUEST) on_request(c, seq, payload, len);
  else if (type == T_BLOB) on_blob(c, seq, payload, len);
}

void ac_feed(ac_core *c, const uint8_t *bytes, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint8_t b = bytes[i];
    if (b == 0) {
      if (!c->rx_overflow && c->rx_len > 0) on_block(c);
      c->rx_len = 0;
      c->rx_overflow = 0;
      continue;
    }
    if (c->rx_overflow) continue;
    if (c->rx_len >= AC_RX_BLOCK) {
      c->rx_overflow = 1;
      continue;
    }
    c->rx[c->rx_len++] = b;
  }
}

/* ---- drawing the screen ------------------------------------------------------------------- */

#define WHITE 0xffff
#define INK 0x2104
#define FACE_BG 0xffdf

static void draw_face(ac_core *c, int expr) {
  const ac_hal *h = c->hal;
  h->display_fill(FACE_BG);
  int sleepy = expr == AC_EXPR_SLEEPY, happy = expr == AC_EXPR_HAPPY, sorry = expr == AC_EXPR_SORRY;
  int surprised = expr == AC_EXPR_SURPRISED, thinking = expr == AC_EXPR_THINKING;
  if (sleepy) {
    h->display_line(62, 104, 102, 104, 6, INK);
    h->display_line(138, 104, 178, 104, 6, INK);
  } else if (happy) {
    h->display_line(62, 110, 82, 92, 6, INK), h->display_line(82, 92, 102, 110, 6, INK);
    h->display_line(138, 110, 158, 92, 6, INK), h->display_line(158, 92, 178, 110, 6, INK);
  } else {
    int r = surprised ? 16 : 12;
    h->display_disc(82, 100, r, INK);
    h->display_disc(158, 100, r, INK);
  }
  if (sorry) {
    h->display_line(62, 80, 98, 70, 5, INK);
    h->display_line(178, 80, 142, 70, 5, INK);
  }
  if (thinking) h->display_line(140, 72, 176, 64, 5, INK);
  if (happy) {
    h->display_line(80, 150, 120, 172, 6, INK), h->display_line(120, 172, 160, 150, 6, INK);
  } else if (sorry) {
    h->display_line(84, 170, 120, 154, 6, INK), h->display_line(120, 154, 156, 170, 6, INK);
  } else if (surprised) {
    h->display_disc(120, 164, 14, INK);
  } else {
    h->display_line(96, 160, 144, 160, 6, INK);
  }
}

static void draw_stroke(ac_core *c, uint16_t index, int upto) {
  const ac_hal *h = c->hal;
  uint16_t off = c->strokes[index].off, len = c->strokes[index].len;
  if (upto > len) upto = len;
  if (len == 1 || upto == 1) {
    h->display_disc(c->points[off][0], c->points[off][1], c->vis_width / 2 > 0 ? c->vis_width / 2 : 1, c->vis_color);
    return;
  }
  for (int i = 1; i < upto; i++)
    h->display_line(c->points[off + i - 1][0], c->points[off + i - 1][1], c->points[off + i][0], c->points[off + i][1], c->vis_width, c->vis_color);
}

static void render(ac_core *c) {
  const ac_hal *h = c->hal;
  if (c->face >= 0) {
    draw_face(c, c->face);
  } else if (c->content == AC_CONTENT_IDLE) {
    draw_face(c, AC_EXPR_NEUTRAL);
  } else if (c->content == AC_CONTENT_DRAWING) {
    h->display_fill(WHITE);
    for (uint16_t i = 0; i < c->vis_drawn; i++) draw_stroke(c, (uint16_t)(c->vis_base + i), 0x7fff);
    if (c->vis_started > c->vis_drawn && c->screen_lane.busy && c->screen_lane.cur.kind == J_STROKE) {
      /* The stroke being drawn: as far as its time has come. */
      uint16_t i = (uint16_t)(c->vis_base + c->vis_drawn);
      uint32_t el = c->hal->millis() - c->screen_lane.started, ms = c->screen_lane.cur.ms ? c->screen_lane.cur.ms : 1;
      int upto = 1 + (int)((uint32_t)(c->strokes[i].len - 1) * (el > ms ? ms : el) / ms);
      draw_stroke(c, i, upto);
    }
    if (c->vis_complete && c->vis_label[0]) h->display_text(60, 214, c->vis_label, strlen(c->vis_label), INK);
  } else if (c->content == AC_CONTENT_PROGRESS) {
    h->display_fill(WHITE);
    char b[24];
    int n = snprintf(b, sizeof b, "%d/%d", c->vis_card.current, c->vis_card.total);
    h->display_text(96, 90, b, (size_t)n, INK);
    int w = 160 * c->vis_card.current / (c->vis_card.total ? c->vis_card.total : 1);
    h->display_line(40, 130, 200, 130, 12, 0xce59);
    if (w > 0) h->display_line(40, 130, 40 + w, 130, 12, 0x2d7f);
    if (c->vis_card.label[0]) h->display_text(50, 160, c->vis_card.label, strlen(c->vis_card.label), INK);
  } else if (c->content == AC_CONTENT_TEXT) {
    h->display_fill(WHITE);
    /* Lines of at most 10 characters (a 240 px round screen, 16 px glyphs). */
    const char *s = c->vis_card.text;
    int y = 50;
    while (*s && y < 200) {
      const char *e = s;
      for (int k = 0; *e && k < 10; k++) {
        e++;
        while ((*e & 0xc0) == 0x80) e++;
      }
      h->display_text(40, y, s, (size_t)(e - s), INK);
      s = e;
      y += 24;
    }
  } else if (c->content == AC_CONTENT_IMAGE) {
    h->display_fill(WHITE);
    h->display_mono((AC_SCREEN_W - c->image_w) / 2, (AC_SCREEN_H - c->image_h) / 2, c->image_w, c->image_h, c->image_shown, INK, WHITE);
  }
  h->display_flush();
}

/* ---- the loop ----------------------------------------------------------------------------- */

void ac_init(ac_core *c, const ac_hal *hal, const ac_config *cfg) {
  memset(c, 0, sizeof *c);
  c->hal = hal;
  c->cfg = *cfg;
  if (c->cfg.max_points < 2 || c->cfg.max_points > AC_MAX_POINTS_PER_STROKE) c->cfg.max_points = AC_MAX_POINTS_PER_STROKE;
  c->head_lane.limit = AC_HEAD_QUEUE;
  c->screen_lane.limit = AC_SCREEN_QUEUE;
  c->face = -1;
  c->content = AC_CONTENT_IDLE;
  for (int i = 0; i < AC_TIMERS; i++) c->timers[i].mem = -1;
  c->boot = hal->random32();
  c->last_rx = hal->millis();
  c->dirty = 1;
  if (hal->head_home) hal->head_home();
  send_hello(c);
}

void ac_poll(ac_core *c) {
  uint8_t buf[256];
  size_t n;
  while (c->hal->serial_read && (n = c->hal->serial_read(buf, sizeof buf)) > 0) ac_feed(c, buf, n);
  uint32_t now = c->hal->millis();
  for (int i = 0; i < AC_TIMERS; i++) {
    if (c->timers[i].mem >= 0 && (int32_t)(now - c->timers[i].due) >= 0) {
      int mem = c->timers[i].mem;
      c->timers[i].mem = -1;
      done(c, mem, c->timers[i].seq, NULL, NULL);
    }
  }
  lane_run(c, &c->head_lane);
  lane_run(c, &c->screen_lane);
  if (c->blob.active && now - c->blob.last >= BLOB_STALL_MS) {
    char m[40];
    snprintf(m, sizeof m, "%lu/%lu bytes", (unsigned long)c->blob.got, (unsigned long)c->blob.len);
    c->blob.active = 0;
    done(c, c->blob.mem, c->blob.seq, "blob_incomplete", m);
  }
  /* Watchdog (§5): no valid host frame for 5 s: rest. */
  if (!c->host_lost && now - c->last_rx > WATCHDOG_MS) {
    stop_all(c);
    c->host_lost = 1;
    c->face = -1;
    c->content = AC_CONTENT_IDLE;
    if (c->hal->head_rest) c->hal->head_rest();
  }
  int animating = c->content == AC_CONTENT_DRAWING && c->face < 0 && c->screen_lane.busy && c->screen_lane.cur.kind == J_STROKE;
  if (c->dirty || (animating && now - c->last_frame >= FRAME_MS)) {
    c->dirty = 0;
    c->last_frame = now;
    render(c);
  }
}
