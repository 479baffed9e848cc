import sys
t=sys.stdin.read().split('\n');c,r=map(int,t[0].split())
g=[list(l.rstrip('\r').ljust(c))for l in t[1:r+1]]
M=[m for m in''.join(t[r+1:])if m in'UDLRW']
P=[(y,x)for y in range(r)for x in range(c)if g[y][x]=='O'][0]
B=[(y,x)for y in range(r)for x in range(c)if g[y][x]=='H']
A=[(-1,-1),(0,-1),(-1,0),(-1,1),(0,1),(1,-1),(1,1),(1,0)]
s=0
def E(d):print('aHHHH!\n'*d+str(s));sys.exit()
def F(T):
 for i,(y,x)in enumerate(B):
  o=[((v-T[0])**2+(u-T[1])**2,k,v,u)for k,(a,b)in enumerate(A)for v,u in[(y+a,x+b)]if g[v][u]in' O']
  if o:
   _,_,v,u=min(o);g[y][x]=' '
   if g[v][u]=='O':E(1)
   g[v][u]='H';B[i]=(v,u)
if not B:E(0)
for n,m in enumerate(M,1):
 S=P
 if m!='W':
  a,b={'U':(-1,0),'D':(1,0),'L':(0,-1),'R':(0,1)}[m];y,x=P[0]+a,P[1]+b;q=g[y][x]
  if q=='H':E(1)
  v,u=y,x
  while g[v][u]=='~':v,u=v+a,u+b
  w=g[v][u];k=q=='~'and w=='H'and g[v+a][u+b]in'#~'
  if q==' 'or q=='~'and(w==' 'or k):
   if k:B.remove((v,u));s+=2
   if q=='~':g[v][u]='~'
   g[P[0]][P[1]]=' ';g[y][x]='O';P=(y,x)
 if not B:E(0)
 if n%2<1:F(S)
z=None;p=l=1
while 1:
 F(P);h=tuple(B)
 if h==z:E(0)
 if l==p:z,p,l=h,p*2,0
 l+=1
