/* The seeds' recursive bitmask N-Queens count (000: test(row, ld, rd), lowbit),
 * kept as the seed wrote it; n from argv, the count printed. Anchor for goal 1. */
#include <stdio.h>
#include <stdlib.h>

static long long ans;
static int upper_limit;

static void test(int row, int ld, int rd)
{
    if (row != upper_limit) {
        int num = upper_limit & ~(row | ld | rd);
        while (num != 0) {
            int p = num & (-num);
            num = num ^ p;
            int lld = (ld | p) << 1, rrd = (rd | p) >> 1;
            test(row | p, lld, rrd);
        }
    } else {
        ans++;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8;
    ans = 0;
    upper_limit = (1 << n) - 1;
    test(0, 0, 0);
    printf("%lld\n", ans);
    return 0;
}
