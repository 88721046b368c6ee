/* A plain bitmask DFS with per-row blocked masks, stopping at its first solution.
 *
 * Input on stdin: n, then n rows of n characters ('1' or '.' = free, '0' or '#' = blocked;
 * other characters are skipped). Rows in order, the smallest column first: the solution
 * found is the lexicographically first one. Prints the 0-based columns (or "none") and
 * the nodes (queens placed). Build: gcc -O2 first_bitmask.c -o first_bitmask
 */
#include <stdint.h>
#include <stdio.h>

static int n;
static uint64_t allowed[64];
static int columns[64];
static unsigned long long nodes;

static int search(int row, uint64_t cols, uint64_t diag, uint64_t anti) {
    uint64_t free = allowed[row] & ~(cols | diag | anti);
    while (free) {
        uint64_t bit = free & -free;
        free ^= bit;
        nodes++;
        columns[row] = __builtin_ctzll(bit);
        if (row == n - 1) return 1;
        if (search(row + 1, cols | bit, (diag | bit) << 1, (anti | bit) >> 1)) return 1;
    }
    return 0;
}

int main(void) {
    if (scanf("%d", &n) != 1 || n < 1 || n > 64) {
        fprintf(stderr, "expected n (1..64), then n rows of n cells\n");
        return 2;
    }
    for (int row = 0; row < n; row++) {
        int col = 0;
        while (col < n) {
            int ch = getchar();
            if (ch == EOF) {
                fprintf(stderr, "row %d is short\n", row);
                return 2;
            }
            if (ch == '1' || ch == '.') allowed[row] |= 1ULL << col++;
            else if (ch == '0' || ch == '#') col++;
        }
    }
    if (search(0, 0, 0, 0)) {
        for (int row = 0; row < n; row++) printf(row ? " %d" : "%d", columns[row]);
        printf("\n");
    } else {
        printf("none\n");
    }
    printf("nodes %llu\n", nodes);
    return 0;
}
