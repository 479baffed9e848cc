const t=require('fs').readFileSync(0,'utf8').split('\n'),[c,r]=t[0].trim().split(/\s+/).map(Number)
const g=[];for(let i=1;i<=r;i++)g.push((t[i]||'').replace(/\r+$/,'').padEnd(c).split(''))
const M=[...t.slice(r+1).join('')].filter(m=>'UDLRW'.includes(m))
let P,B=[],s=0;for(let y=0;y<r;y++)for(let x=0;x<c;x++){if(g[y][x]=='O')P=[y,x];if(g[y][x]=='H')B.push([y,x])}
const A=[[-1,-1],[0,-1],[-1,0],[-1,1],[0,1],[1,-1],[1,1],[1,0]]
function E(d){process.stdout.write('aHHHH!\n'.repeat(d)+s+'\n');process.exit()}
function F(T){for(let i=0;i<B.length;i++){const[y,x]=B[i];let o=null
A.forEach(([a,b],k)=>{const v=y+a,u=x+b;if(g[v][u]==' '||g[v][u]=='O'){const d=(v-T[0])**2+(u-T[1])**2;if(!o||d<o[0])o=[d,v,u]}})
if(o){const[,v,u]=o;g[y][x]=' ';if(g[v][u]=='O')E(1);g[v][u]='H';B[i]=[v,u]}}}
if(!B.length)E(0)
for(let n=1;n<=M.length;n++){const m=M[n-1],S=P
if(m!='W'){const[a,b]={U:[-1,0],D:[1,0],L:[0,-1],R:[0,1]}[m],y=P[0]+a,x=P[1]+b,q=g[y][x]
if(q=='H')E(1);let v=y,u=x;while(g[v][u]=='~'){v+=a;u+=b}
const w=g[v][u],k=q=='~'&&w=='H'&&'#~'.includes(g[v+a][u+b])
if(q==' '||q=='~'&&(w==' '||k)){if(k){B.splice(B.findIndex(([p,o])=>p==v&&o==u),1);s+=2}
if(q=='~')g[v][u]='~';g[P[0]][P[1]]=' ';g[y][x]='O';P=[y,x]}}
if(!B.length)E(0);if(n%2<1)F(S)}
let z=null,p=1,l=1;for(;;){F(P);const h=JSON.stringify(B);if(h===z)E(0);if(l==p){z=h;p*=2;l=0}l++}
