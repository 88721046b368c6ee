/* A plain C bitmask DFS counting N-Queens on a board with holes and placed queens.
 *
 * The seeds' recursive DFS (row / left / right masks, lowest bit first) with one
 * allowed-column mask per row. Reads the board from stdin: n, then n lines of
 * '1' (a queen may stand) and '0' (a hole). Each argument "r,c" places a queen:
 * its row allows only its cell, and the cells it attacks close in the other rows
 * (the preprocessing anyone counting completions would do). Prints the count.
 * Anchor of benchmarks/bench_holes.py (issue 13); compiled with gcc -O2. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static uint64_t allowed[64];
static int n;
static long long ans;

static void test(int row, uint64_t cols, uint64_t ld, uint64_t rd)
{
    if (row == n) {
        ans++;
        return;
    }
    uint64_t num = allowed[row] & ~(cols | ld | rd);
    while (num != 0) {
        uint64_t p = num & (~num + 1);
        num ^= p;
        test(row + 1, cols | p, (ld | p) << 1, (rd | p) >> 1);
    }
}

int main(int argc, char **argv)
{
    if (scanf("%d", &n) != 1 || n < 1 || n > 63) {
        fprintf(stderr, "expected n (1..63) then n rows of 0/1\n");
        return 2;
    }
    uint64_t full = (1ULL << n) - 1;
    for (int r = 0; r < n; r++) {
        char line[128];
        if (scanf("%127s", line) != 1) {
            fprintf(stderr, "row %d missing\n", r);
            return 2;
        }
        allowed[r] = 0;
        for (int c = 0; c < n && line[c]; c++)
            if (line[c] == '1')
                allowed[r] |= 1ULL << c;
    }
    for (int i = 1; i < argc; i++) {
        int pr, pc;
        if (sscanf(argv[i], "%d,%d", &pr, &pc) != 2 || pr < 0 || pr >= n || pc < 0 || pc >= n) {
            fprintf(stderr, "bad placed queen %s\n", argv[i]);
            return 2;
        }
        for (int r = 0; r < n; r++) {
            if (r == pr) {
                allowed[r] &= 1ULL << pc;
                continue;
            }
            int d = r - pr;
            allowed[r] &= ~(1ULL << pc);
            if (pc + d >= 0 && pc + d < n)
                allowed[r] &= ~(1ULL << (pc + d));
            if (pc - d >= 0 && pc - d < n)
                allowed[r] &= ~(1ULL << (pc - d));
        }
    }
    (void)full;
    ans = 0;
    test(0, 0, 0, 0);
    printf("%lld\n", ans);
    return 0;
}
