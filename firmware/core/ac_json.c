#include "ac_json.h"

#include <string.h>

typedef struct {
  const char *js;
  size_t n, i;
  acj_tok *toks;
  int max, count;
} parser;

static void skip_ws(parser *p) {
  while (p->i < p->n && (p->js[p->i] == ' ' || p->js[p->i] == '\t' || p->js[p->i] == '\n' || p->js[p->i] == '\r')) p->i++;
}

static int new_tok(parser *p, acj_type type, size_t start) {
  if (p->count >= p->max) return -1;
  acj_tok *t = &p->toks[p->count];
  t->type = (uint8_t)type;
  t->start = (uint16_t)start;
  t->end = (uint16_t)start;
  t->size = 0;
  t->next = 0;
  return p->count++;
}

static int is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

static int parse_value(parser *p, int depth);

static int parse_string(parser *p) {
  /* at the opening quote */
  size_t start = ++p->i;
  while (p->i < p->n) {
    unsigned char c = (unsigned char)p->js[p->i];
    if (c == '"') {
      int t = new_tok(p, ACJ_STRING, start);
      if (t < 0) return -1;
      p->toks[t].end = (uint16_t)p->i;
      p->toks[t].next = (uint16_t)(t + 1);
      p->i++;
      return t;
    }
    if (c < 0x20) return -1;
    if (c == '\\') {
      p->i++;
      if (p->i >= p->n) return -1;
      c = (unsigned char)p->js[p->i];
      if (c == 'u') {
        if (p->i + 4 >= p->n) return -1;
        for (int k = 1; k <= 4; k++)
          if (!is_hex(p->js[p->i + k])) return -1;
        p->i += 4;
      } else if (!strchr("\"\\/bfnrt", c)) return -1;
    }
    p->i++;
  }
  return -1;
}

static int parse_number(parser *p) {
  size_t start = p->i;
  if (p->js[p->i] == '-') p->i++;
  if (p->i >= p->n) return -1;
  if (p->js[p->i] == '0') p->i++;
  else if (p->js[p->i] >= '1' && p->js[p->i] <= '9')
    while (p->i < p->n && p->js[p->i] >= '0' && p->js[p->i] <= '9') p->i++;
  else return -1;
  if (p->i < p->n && p->js[p->i] == '.') {
    p->i++;
    size_t d = p->i;
    while (p->i < p->n && p->js[p->i] >= '0' && p->js[p->i] <= '9') p->i++;
    if (p->i == d) return -1;
  }
  if (p->i < p->n && (p->js[p->i] == 'e' || p->js[p->i] == 'E')) {
    p->i++;
    if (p->i < p->n && (p->js[p->i] == '+' || p->js[p->i] == '-')) p->i++;
    size_t d = p->i;
    while (p->i < p->n && p->js[p->i] >= '0' && p->js[p->i] <= '9') p->i++;
    if (p->i == d) return -1;
  }
  int t = new_tok(p, ACJ_NUMBER, start);
  if (t < 0) return -1;
  p->toks[t].end = (uint16_t)p->i;
  p->toks[t].next = (uint16_t)(t + 1);
  return t;
}

static int parse_word(parser *p, const char *w, acj_type type) {
  size_t len = strlen(w);
  if (p->i + len > p->n || memcmp(p->js + p->i, w, len) != 0) return -1;
  int t = new_tok(p, type, p->i);
  if (t < 0) return -1;
  p->i += len;
  p->toks[t].end = (uint16_t)p->i;
  p->toks[t].next = (uint16_t)(t + 1);
  return t;
}

static int parse_container(parser *p, int depth, int object) {
  int t = new_tok(p, object ? ACJ_OBJECT : ACJ_ARRAY, p->i);
  if (t < 0) return -1;
  char close = object ? '}' : ']';
  p->i++;
  skip_ws(p);
  if (p->i < p->n && p->js[p->i] == close) {
    p->i++;
  } else {
    for (;;) {
      skip_ws(p);
      if (object) {
        if (p->i >= p->n || p->js[p->i] != '"') return -1;
        if (parse_string(p) < 0) return -1;
        p->toks[t].size++;
        skip_ws(p);
        if (p->i >= p->n || p->js[p->i] != ':') return -1;
        p->i++;
      }
      if (parse_value(p, depth + 1) < 0) return -1;
      p->toks[t].size++;
      skip_ws(p);
      if (p->i >= p->n) return -1;
      if (p->js[p->i] == ',') {
        p->i++;
        continue;
      }
      if (p->js[p->i] == close) {
        p->i++;
        break;
      }
      return -1;
    }
  }
  p->toks[t].end = (uint16_t)p->i;
  p->toks[t].next = (uint16_t)p->count;
  return t;
}

static int parse_value(parser *p, int depth) {
  if (depth > 16) return -1;
  skip_ws(p);
  if (p->i >= p->n) return -1;
  char c = p->js[p->i];
  if (c == '{') return parse_container(p, depth, 1);
  if (c == '[') return parse_container(p, depth, 0);
  if (c == '"') return parse_string(p);
  if (c == 't') return parse_word(p, "true", ACJ_TRUE);
  if (c == 'f') return parse_word(p, "false", ACJ_FALSE);
  if (c == 'n') return parse_word(p, "null", ACJ_NULL);
  if (c == '-' || (c >= '0' && c <= '9')) return parse_number(p);
  return -1;
}

int acj_parse(const char *js, size_t n, acj_tok *toks, int max) {
  parser p = {js, n, 0, toks, max, 0};
  if (n > 0xffff) return -1;
  if (parse_value(&p, 0) < 0) return -1;
  skip_ws(&p);
  if (p.i != n) return -1;
  return p.count;
}

int acj_get(const char *js, const acj_tok *toks, int obj, const char *key) {
  if (obj < 0 || toks[obj].type != ACJ_OBJECT) return -1;
  int i = obj + 1;
  for (int m = 0; m < toks[obj].size / 2; m++) {
    int v = toks[i].next;
    if (acj_eq(js, &toks[i], key)) return v;
    i = toks[v].next;
  }
  return -1;
}

int acj_int(const char *js, const acj_tok *t, int32_t *out) {
  if (t->type != ACJ_NUMBER) return 0;
  /* Integer syntax only, or a fraction/exponent that still makes a whole number (1.0, 2e1). */
  int neg = 0;
  size_t i = t->start;
  if (js[i] == '-') {
    neg = 1;
    i++;
  }
  int64_t v = 0;
  while (i < t->end && js[i] >= '0' && js[i] <= '9') {
    v = v * 10 + (js[i] - '0');
    if (v > 0x7fffffffLL) return 0;
    i++;
  }
  if (i < t->end && js[i] == '.') {
    i++;
    while (i < t->end && js[i] >= '0' && js[i] <= '9') {
      if (js[i] != '0') return 0; /* a fraction: not an integer */
      i++;
    }
  }
  if (i < t->end && (js[i] == 'e' || js[i] == 'E')) {
    i++;
    int eneg = 0;
    if (js[i] == '+' || js[i] == '-') eneg = js[i++] == '-';
    int e = 0;
    while (i < t->end && js[i] >= '0' && js[i] <= '9') {
      e = e * 10 + (js[i] - '0');
      if (e > 12) return 0;
      i++;
    }
    while (e-- > 0) {
      if (eneg) {
        if (v % 10) return 0;
        v /= 10;
      } else {
        v *= 10;
        if (v > 0x7fffffffLL) return 0;
      }
    }
  }
  *out = (int32_t)(neg ? -v : v);
  return 1;
}

static int hexval(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

static int put_utf8(char *out, size_t cap, size_t *o, uint32_t cp) {
  uint8_t b[4];
  int n;
  if (cp < 0x80) {
    b[0] = (uint8_t)cp;
    n = 1;
  } else if (cp < 0x800) {
    b[0] = (uint8_t)(0xc0 | (cp >> 6));
    b[1] = (uint8_t)(0x80 | (cp & 0x3f));
    n = 2;
  } else if (cp < 0x10000) {
    b[0] = (uint8_t)(0xe0 | (cp >> 12));
    b[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
    b[2] = (uint8_t)(0x80 | (cp & 0x3f));
    n = 3;
  } else {
    b[0] = (uint8_t)(0xf0 | (cp >> 18));
    b[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
    b[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
    b[3] = (uint8_t)(0x80 | (cp & 0x3f));
    n = 4;
  }
  if (*o + (size_t)n >= cap) return -1;
  memcpy(out + *o, b, (size_t)n);
  *o += (size_t)n;
  return 0;
}

int acj_str(const char *js, const acj_tok *t, char *out, size_t cap) {
  if (t->type != ACJ_STRING) return -1;
  size_t o = 0;
  for (size_t i = t->start; i < t->end; i++) {
    char c = js[i];
    if (c != '\\') {
      if (o + 1 >= cap) return -1;
      out[o++] = c;
      continue;
    }
    c = js[++i];
    uint32_t cp;
    switch (c) {
      case 'b': cp = 8; break;
      case 'f': cp = 12; break;
      case 'n': cp = 10; break;
      case 'r': cp = 13; break;
      case 't': cp = 9; break;
      case 'u':
        cp = (uint32_t)(hexval(js[i + 1]) << 12 | hexval(js[i + 2]) << 8 | hexval(js[i + 3]) << 4 | hexval(js[i + 4]));
        i += 4;
        if (cp >= 0xd800 && cp < 0xdc00 && i + 6 < t->end && js[i + 1] == '\\' && js[i + 2] == 'u') {
          uint32_t lo = (uint32_t)(hexval(js[i + 3]) << 12 | hexval(js[i + 4]) << 8 | hexval(js[i + 5]) << 4 | hexval(js[i + 6]));
          if (lo >= 0xdc00 && lo < 0xe000) {
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            i += 6;
          }
        }
        break;
      default: cp = (uint8_t)c; break;
    }
    if (put_utf8(out, cap, &o, cp) < 0) return -1;
  }
  if (o >= cap) return -1;
  out[o] = 0;
  return (int)o;
}

int acj_eq(const char *js, const acj_tok *t, const char *s) {
  if (t->type != ACJ_STRING) return 0;
  size_t len = strlen(s);
  /* Fast path: no escapes. */
  if ((size_t)(t->end - t->start) == len && memcmp(js + t->start, s, len) == 0) return 1;
  if (!memchr(js + t->start, '\\', (size_t)(t->end - t->start))) return 0;
  char buf[64];
  int n = acj_str(js, t, buf, sizeof buf);
  return n >= 0 && (size_t)n == len && memcmp(buf, s, len) == 0;
}
