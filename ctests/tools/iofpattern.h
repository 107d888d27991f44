/* The output iofhost.c delivers and iofpull.c checks: NPIECES pieces, piece i of
 * piece_len(i) bytes (1 to PIECE_MAX, most above one read of either library), byte j of it
 * piece_byte(i, j). */
#include <stddef.h>

#define NPIECES 400
#define PIECE_MAX 150000

static size_t piece_len(int i)
{
    return 1 + ((size_t) i * 7919u) % PIECE_MAX;
}

static unsigned char piece_byte(int i, size_t j)
{
    return (unsigned char) (i * 31 + (int) (j % 251));
}
