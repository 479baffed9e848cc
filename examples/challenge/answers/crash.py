import sys
w=sys.stdin.read().split()
print(w[len(w)])
