/*
 * A small JSON tokenizer for request payloads: no heap, tokens in a caller's array, strict
 * RFC 8259 syntax (what the host sends is JSON.stringify output; anything else is bad_json).
 */
#ifndef AC_JSON_H
#define AC_JSON_H

#include <stddef.h>
#include <stdint.h>

typedef enum { ACJ_OBJECT, ACJ_ARRAY, ACJ_STRING, ACJ_NUMBER, ACJ_TRUE, ACJ_FALSE, ACJ_NULL } acj_type;

typedef struct {
  uint8_t type;
  /* Byte range in the payload: a string's without its quotes. */
  uint16_t start, end;
  /* Children: members of an object count key and value separately (2 per member). */
  uint16_t size;
  /* Index of the first token after this one's subtree. */
  uint16_t next;
} acj_tok;

/* Parses `n` bytes into at most `max` tokens; returns the count, or -1 when it is not valid JSON
 * (or needs more tokens). Token 0 is the top-level value. */
int acj_parse(const char *js, size_t n, acj_tok *toks, int max);

/* The value token of `key` in object token `obj`, or -1. */
int acj_get(const char *js, const acj_tok *toks, int obj, const char *key);

/* A number token as an integer: 1 when it is one (no fraction, within int32), 0 otherwise. */
int acj_int(const char *js, const acj_tok *t, int32_t *out);

/* Decodes a string token (escapes, \u with surrogate pairs) into UTF-8; returns the byte length,
 * or -1 when it does not fit in `cap` bytes (a terminating 0 is written when it fits). */
int acj_str(const char *js, const acj_tok *t, char *out, size_t cap);

/* Whether a string token equals `s` (after decoding escapes). */
int acj_eq(const char *js, const acj_tok *t, const char *s);

#endif
