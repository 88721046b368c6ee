/* A plain C bitmask DFS of the free N-Queens board with one of issue 22's conditions.
 *
 * The seeds' recursive DFS (row / left / right masks, lowest bit first, no
 * symmetry), each condition checked at its last row: "lt" q[0] < q[n-1],
 * "abs" |q[0] - q[1]| > 2, "mod" (q[3] + q[4]) % 3 == 0, "alldiff" the values
 * q[r] + 2r all different (checked row by row against a mask of the values
 * taken, which is earlier than its last row), "plain" none. Usage:
 * conditions_dfs KIND N; prints the count. Anchor of
 * benchmarks/bench_conditions.py; compiled with gcc -O2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

static int n, kind, q[64];
static long long ans;
enum { PLAIN, LT, ABS, MOD, ALLDIFF };

static int holds(int row)
{
    switch (kind) {
    case LT: return row != n - 1 || q[0] < q[n - 1];
    case ABS: return row != 1 || abs(q[0] - q[1]) > 2;
    case MOD: return row != 4 || (q[3] + q[4]) % 3 == 0;
    default: return 1;
    }
}

static void test(int row, uint64_t cols, uint64_t ld, uint64_t rd, uint64_t lo, uint64_t hi)
{
    /* lo/hi: the values q[r] + 2r taken so far (alldiff; values below 128) */
    if (row == n) {
        ans++;
        return;
    }
    uint64_t num = ~(cols | ld | rd) & ((1ULL << n) - 1);
    while (num != 0) {
        uint64_t p = num & (~num + 1);
        num ^= p;
        q[row] = __builtin_ctzll(p);
        uint64_t nlo = lo, nhi = hi;
        if (kind == ALLDIFF) {
            int v = q[row] + 2 * row;
            if (v < 64) {
                if (lo >> v & 1) continue;
                nlo |= 1ULL << v;
            } else {
                if (hi >> (v - 64) & 1) continue;
                nhi |= 1ULL << (v - 64);
            }
        } else if (!holds(row)) {
            continue;
        }
        test(row + 1, cols | p, (ld | p) << 1, (rd | p) >> 1, nlo, nhi);
    }
}

int main(int argc, char **argv)
{
    static const char *names[] = {"plain", "lt", "abs", "mod", "alldiff"};
    kind = -1;
    if (argc == 3)
        for (int k = 0; k < 5; k++)
            if (!strcmp(argv[1], names[k]))
                kind = k;
    n = argc == 3 ? atoi(argv[2]) : 0;
    if (kind < 0 || n < 1 || n > 63) {
        fprintf(stderr, "usage: conditions_dfs plain|lt|abs|mod|alldiff N (1..63)\n");
        return 2;
    }
    test(0, 0, 0, 0, 0, 0);
    printf("%lld\n", ans);
    return 0;
}
