t=STDIN.read.split("\n",-1);c,r=t[0].split.map(&:to_i)
$g=(1..r).map{|i|(t[i]||"").sub(/\r+$/,"").ljust(c).chars}
m=t[r+1..].join.chars.select{|x|"UDLRW".include?(x)}
$s=0;$b=[];pl=nil
r.times{|y|c.times{|x|pl=[y,x] if $g[y][x]=="O";$b<<[y,x] if $g[y][x]=="H"}}
A=[[-1,-1],[0,-1],[-1,0],[-1,1],[0,1],[1,-1],[1,1],[1,0]]
def e(d)=(print "aHHHH!\n"*d,$s,"\n";exit)
def f(t)
 $b.each_with_index{|(y,x),i|
  o=A.each_with_index.filter_map{|(a,b),k|v,u=y+a,x+b;[(v-t[0])**2+(u-t[1])**2,k,v,u] if " O".include?($g[v][u])}.min
  next unless o
  _,_,v,u=o;$g[y][x]=" ";e(1) if $g[v][u]=="O";$g[v][u]="H";$b[i]=[v,u]}
end
e(0) if $b.empty?
m.each.with_index(1){|q0,n|s0=pl
 if q0!="W"
  a,b={"U"=>[-1,0],"D"=>[1,0],"L"=>[0,-1],"R"=>[0,1]}[q0];y,x=pl[0]+a,pl[1]+b;q=$g[y][x]
  e(1) if q=="H"
  v,u=y,x;(v,u=v+a,u+b) while $g[v][u]=="~"
  w=$g[v][u];k=q=="~"&&w=="H"&&"#~".include?($g[v+a][u+b])
  if q==" "||q=="~"&&(w==" "||k)
   ($b.delete([v,u]);$s+=2) if k
   $g[v][u]="~" if q=="~"
   $g[pl[0]][pl[1]]=" ";$g[y][x]="O";pl=[y,x]
  end
 end
 e(0) if $b.empty?
 f(s0) if n.even?}
z=nil;p=l=1
loop{f(pl);h=$b.map(&:dup);e(0) if h==z;(z,p,l=h,p*2,0) if l==p;l+=1}
