/* The judges' 2n-queens method (seed 001): every black placement by DFS, then a
 * fresh white DFS on the cells it left; kept as written, with a long long count.
 * Input as the judge's: n, then n rows of 0/1 (1 = a queen may stand there). */
#include <stdio.h>
#include <string.h>
#include <stdbool.h>
#define MAX_N 20
char map[MAX_N][MAX_N + 1];
bool vis[3][MAX_N * 2];
bool vis_0[3][MAX_N * 2];
bool used[MAX_N][MAX_N];
int N;
long long ans;
void dfs_0(int cnt)
{
    if (cnt == N) { ans++; return; }
    for (int i = 0; i < N; i++) {
        if (vis_0[0][i] || vis_0[1][i + cnt] || vis_0[2][N - cnt + i] || used[cnt][i] || map[cnt][i] == '0') continue;
        vis_0[0][i] = vis_0[1][i + cnt] = vis_0[2][N - cnt + i] = true;
        dfs_0(cnt + 1);
        vis_0[0][i] = vis_0[1][i + cnt] = vis_0[2][N - cnt + i] = false;
    }
}
void dfs_1(int cnt)
{
    if (cnt == N) { dfs_0(0); return; }
    for (int i = 0; i < N; i++) {
        if (vis[0][i] || vis[1][i + cnt] || vis[2][N - cnt + i] || map[cnt][i] == '0') continue;
        used[cnt][i] = vis[0][i] = vis[1][i + cnt] = vis[2][N - cnt + i] = true;
        dfs_1(cnt + 1);
        used[cnt][i] = vis[0][i] = vis[1][i + cnt] = vis[2][N - cnt + i] = false;
    }
}
int main(void)
{
    while (~scanf("%d", &N)) {
        for (int j = 0; j < N; j++) scanf("%s", map[j]);
        memset(vis, 0, sizeof(vis));
        memset(vis_0, 0, sizeof(vis_0));
        memset(used, 0, sizeof(used));
        ans = 0;
        dfs_1(0);
        printf("%lld\n", ans);
    }
    return 0;
}
