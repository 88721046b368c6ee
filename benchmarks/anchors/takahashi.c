/* Takahashi's 2003 N-Queens counter, re-typed from his published algorithm
 * (http://www.ic-net.or.jp/home/takaken/e/queen/index.html, the final version):
 * the bitmask DFS, split into solutions with a queen in the corner (row 0,
 * column 0: Backtrack1, every one of them in a class of 8) and without
 * (Backtrack2: row 0's queen at BOUND1 from the corner, the other edge queens
 * kept nearer the corners by SIDEMASK / LASTMASK), with the rotation checks at
 * the leaves (Check) deciding whether a solution is its class's representative
 * and the class's size (2, 4 or 8). n from argv; prints the total and the unique
 * count. Anchor of benchmarks/bench_holes.py (issue 13); compiled with gcc -O2. */
#include <stdio.h>
#include <stdlib.h>

#define MAXSIZE 30

static int SIZE, SIZEE;
static int BOARD[MAXSIZE], *BOARDE, *BOARD1, *BOARD2;
static int MASK, TOPBIT, ENDBIT, SIDEMASK, LASTMASK;
static int BOUND1, BOUND2;
static long long COUNT8, COUNT4, COUNT2;

/* Is BOARD the smallest of its rotations? Count it by its class's size if so. */
static void Check(void)
{
    int *own, *you, bit, ptn;

    /* 90 degrees */
    if (*BOARD2 == 1) {
        for (ptn = 2, own = BOARD + 1; own <= BOARDE; own++, ptn <<= 1) {
            bit = 1;
            for (you = BOARDE; *you != ptn && *own >= bit; you--)
                bit <<= 1;
            if (*own > bit)
                return;
            if (*own < bit)
                break;
        }
        if (own > BOARDE) {
            COUNT2++;
            return;
        }
    }
    /* 180 degrees */
    if (*BOARDE == ENDBIT) {
        for (you = BOARDE - 1, own = BOARD + 1; own <= BOARDE; own++, you--) {
            bit = 1;
            for (ptn = TOPBIT; ptn != *you && *own >= bit; ptn >>= 1)
                bit <<= 1;
            if (*own > bit)
                return;
            if (*own < bit)
                break;
        }
        if (own > BOARDE) {
            COUNT4++;
            return;
        }
    }
    /* 270 degrees */
    if (*BOARD1 == TOPBIT) {
        for (ptn = TOPBIT >> 1, own = BOARD + 1; own <= BOARDE; own++, ptn >>= 1) {
            bit = 1;
            for (you = BOARD; *you != ptn && *own >= bit; you++)
                bit <<= 1;
            if (*own > bit)
                return;
            if (*own < bit)
                break;
        }
    }
    COUNT8++;
}

/* No queen in a corner: row 0's queen at BOUND1. */
static void Backtrack2(int y, int left, int down, int right)
{
    int bitmap, bit;

    bitmap = MASK & ~(left | down | right);
    if (y == SIZEE) {
        if (bitmap) {
            if (!(bitmap & LASTMASK)) {
                BOARD[y] = bitmap;
                Check();
            }
        }
    } else {
        if (y < BOUND1) {
            bitmap |= SIDEMASK;
            bitmap ^= SIDEMASK;
        } else if (y == BOUND2) {
            if (!(down & SIDEMASK))
                return;
            if ((down & SIDEMASK) != SIDEMASK)
                bitmap &= SIDEMASK;
        }
        while (bitmap) {
            bitmap ^= BOARD[y] = bit = -bitmap & bitmap;
            Backtrack2(y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
        }
    }
}

/* A queen in the corner: row 1's queen at BOUND1, the diagonal mirror kept out. */
static void Backtrack1(int y, int left, int down, int right)
{
    int bitmap, bit;

    bitmap = MASK & ~(left | down | right);
    if (y == SIZEE) {
        if (bitmap) {
            BOARD[y] = bitmap;
            COUNT8++;
        }
    } else {
        if (y < BOUND1) {
            bitmap |= 2;
            bitmap ^= 2;
        }
        while (bitmap) {
            bitmap ^= BOARD[y] = bit = -bitmap & bitmap;
            Backtrack1(y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
        }
    }
}

int main(int argc, char **argv)
{
    int bit;

    SIZE = argc > 1 ? atoi(argv[1]) : 8;
    if (SIZE < 5 || SIZE >= MAXSIZE) {
        fprintf(stderr, "n must be 5..%d\n", MAXSIZE - 1);
        return 2;
    }
    SIZEE = SIZE - 1;
    BOARDE = &BOARD[SIZEE];
    TOPBIT = 1 << SIZEE;
    MASK = (1 << SIZE) - 1;
    COUNT8 = COUNT4 = COUNT2 = 0;

    /* 0:000000001 */
    /* 1:011111100 */
    BOARD[0] = 1;
    for (BOUND1 = 2; BOUND1 < SIZEE; BOUND1++) {
        BOARD[1] = bit = 1 << BOUND1;
        Backtrack1(2, (2 | bit) << 1, 1 | bit, bit >> 1);
    }

    /* 0:000001110 */
    SIDEMASK = LASTMASK = TOPBIT | 1;
    ENDBIT = TOPBIT >> 1;
    for (BOUND1 = 1, BOUND2 = SIZE - 2; BOUND1 < BOUND2; BOUND1++, BOUND2--) {
        BOARD1 = &BOARD[BOUND1];
        BOARD2 = &BOARD[BOUND2];
        BOARD[0] = bit = 1 << BOUND1;
        Backtrack2(1, bit << 1, bit, bit >> 1);
        LASTMASK |= LASTMASK >> 1 | LASTMASK << 1;
        ENDBIT >>= 1;
    }
    printf("%lld %lld\n", COUNT8 * 8 + COUNT4 * 4 + COUNT2 * 2, COUNT8 + COUNT4 + COUNT2);
    return 0;
}
