"""Count the 8-queens solutions with every backend and draw the first one."""

import cpqueens

model = cpqueens.model(8)
for name in cpqueens.backends():
    print(f"{name:>17}: {model.count(backend=name)} solutions")
print()
print(model.first())
