#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int c,r,s,nb,py,px,*by,*bx;char**g;
int A[8][2]={{-1,-1},{0,-1},{-1,0},{-1,1},{0,1},{1,-1},{1,1},{1,0}};
void E(int d){while(d--)puts("aHHHH!");printf("%d\n",s);exit(0);}
void F(int ty,int tx){for(int i=0;i<nb;i++){int y=by[i],x=bx[i],bd=-1,bv=0,bu=0;
for(int k=0;k<8;k++){int v=y+A[k][0],u=x+A[k][1];char q=g[v][u];
if(q==' '||q=='O'){int d=(v-ty)*(v-ty)+(u-tx)*(u-tx);if(bd<0||d<bd){bd=d;bv=v;bu=u;}}}
if(bd>=0){g[y][x]=' ';if(g[bv][bu]=='O')E(1);g[bv][bu]='H';by[i]=bv;bx[i]=bu;}}}
int main(void){size_t n=0,cap=1<<16,k;char*in=malloc(cap);
while((k=fread(in+n,1,cap-n,stdin))>0){n+=k;if(n==cap)in=realloc(in,cap*=2);}in[n]=0;
char**L=malloc(sizeof(char*)*(n+2));int nl=0;L[nl++]=in;
for(size_t i=0;i<n;i++)if(in[i]=='\n'){in[i]=0;L[nl++]=in+i+1;}
sscanf(L[0],"%d %d",&c,&r);g=malloc(sizeof(char*)*r);
by=malloc(sizeof(int)*(c*r+1));bx=malloc(sizeof(int)*(c*r+1));
for(int y=0;y<r;y++){char*l=y+1<nl?L[y+1]:"";int len=strlen(l);while(len&&l[len-1]=='\r')len--;
int w=len>c?len:c;g[y]=malloc(w+1);memset(g[y],' ',w);memcpy(g[y],l,len);g[y][w]=0;}
for(int y=0;y<r;y++)for(int x=0;x<c;x++){if(g[y][x]=='O'){py=y;px=x;}if(g[y][x]=='H'){by[nb]=y;bx[nb++]=x;}}
char*M=malloc(n+1);int nm=0;for(int i=r+1;i<nl;i++)for(char*p=L[i];*p;p++)if(strchr("UDLRW",*p))M[nm++]=*p;
if(!nb)E(0);
for(int i=0;i<nm;i++){int sy=py,sx=px;char m=M[i];
if(m!='W'){int a=m=='U'?-1:m=='D',b=m=='L'?-1:m=='R',y=py+a,x=px+b;char q=g[y][x];
if(q=='H')E(1);int v=y,u=x;while(g[v][u]=='~'){v+=a;u+=b;}
char w=g[v][u];int kk=q=='~'&&w=='H'&&(g[v+a][u+b]=='#'||g[v+a][u+b]=='~');
if(q==' '||(q=='~'&&(w==' '||kk))){if(kk){int j=0;while(by[j]!=v||bx[j]!=u)j++;
memmove(by+j,by+j+1,(nb-j-1)*sizeof(int));memmove(bx+j,bx+j+1,(nb-j-1)*sizeof(int));nb--;s+=2;}
if(q=='~')g[v][u]='~';g[py][px]=' ';g[y][x]='O';py=y;px=x;}}
if(!nb)E(0);if(i%2)F(sy,sx);}
int*zy=malloc(sizeof(int)*(nb+1)),*zx=malloc(sizeof(int)*(nb+1)),zn=-1;long p=1,l=1;
for(;;){F(py,px);if(zn==nb&&!memcmp(zy,by,nb*sizeof(int))&&!memcmp(zx,bx,nb*sizeof(int)))E(0);
if(l==p){memcpy(zy,by,nb*sizeof(int));memcpy(zx,bx,nb*sizeof(int));zn=nb;p*=2;l=0;}l++;}}
