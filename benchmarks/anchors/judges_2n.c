/* The judges' 2n-queens method (seed 001): every black placement by DFS, then a
 * fresh white DFS on the cells that placement left. Written here with the seeds'
 * row/ld/rd bitmasks and a per-row mask of the usable cells (as seed 004's P1562
 * solution ORs its blocked mask in), so the anchor is the judges' algorithm at
 * its fastest: the judge's array version, as written, took about 10x longer
 * (381 s for the free 12x12 board on this machine).
 * Input as the judge's: n, then n rows of 0/1 (1 = a queen may stand there);
 * several cases may follow one another. */
#include <stdio.h>

#define MAX_N 20
static int n, full;
static int usable[MAX_N];  /* per row: the columns a queen may use */
static int black[MAX_N];   /* per row: the black queen's column bit */
static long long ans;

static void white(int r, int cols, int ld, int rd)
{
    if (r == n) { ans++; return; }
    int pos = usable[r] & ~black[r] & ~(cols | ld | rd) & full;
    while (pos) {
        int p = pos & -pos;
        pos ^= p;
        white(r + 1, cols | p, (ld | p) << 1, (rd | p) >> 1);
    }
}

static void dfs_black(int r, int cols, int ld, int rd)
{
    if (r == n) { white(0, 0, 0, 0); return; }
    int pos = usable[r] & ~(cols | ld | rd) & full;
    while (pos) {
        int p = pos & -pos;
        pos ^= p;
        black[r] = p;
        dfs_black(r + 1, cols | p, (ld | p) << 1, (rd | p) >> 1);
    }
    black[r] = 0;
}

int main(void)
{
    char row[MAX_N + 2];
    while (scanf("%d", &n) == 1) {
        full = (1 << n) - 1;
        for (int r = 0; r < n; r++) {
            scanf("%s", row);
            usable[r] = 0;
            for (int c = 0; c < n; c++)
                if (row[c] == '1') usable[r] |= 1 << c;
        }
        ans = 0;
        dfs_black(0, 0, 0, 0);
        printf("%lld\n", ans);
    }
    return 0;
}
