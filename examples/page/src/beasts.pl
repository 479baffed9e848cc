# An answer to the beast puzzle written for the tests from docs/RULES.md alone, with one
# rule changed when asked: `train` (a train of 2 or more ~ never moves), `crushbeast` (a
# beast is crushed against a beast too), `nosqueeze` (no diagonal move between two walls),
# `onepoint` (1 point a crush), `oneline` (the answer on one line: a format mistake only).
# With no argument it follows the rules.
use strict;
use warnings;

my $mistake = $ARGV[0] // "";
local $/;
my $text = <STDIN>;
$text =~ s/\r//g;
my @lines = split /\n/, $text, -1;
my ($cols, $rows) = split ' ', $lines[0];
my @g;
for my $r (0 .. $rows - 1) {
    my $line = substr(sprintf("%-${cols}s", $lines[1 + $r] // ""), 0, $cols);
    push @g, [split //, $line];
}
my $rest = join "", @lines[1 + $rows .. $#lines];
my @moves = grep { /[UDLRW]/ } split //, $rest;
my %step = (U => [-1, 0], D => [1, 0], L => [0, -1], R => [0, 1]);
my @around = ([-1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1], [1, -1], [1, 1], [1, 0]);
my (@beasts, @player);
for my $r (0 .. $rows - 1) {
    for my $c (0 .. $cols - 1) {
        push @beasts, [$r, $c] if $g[$r][$c] eq "H";
        @player = ($r, $c) if $g[$r][$c] eq "O";
    }
}
my ($score, $dead) = (0, 0);

sub player_acts {
    my ($m) = @_;
    return if $m eq "W";
    my ($dr, $dc) = @{ $step{$m} };
    my ($r, $c) = ($player[0] + $dr, $player[1] + $dc);
    my $cell = $g[$r][$c];
    if ($cell eq " ") {
        $g[$player[0]][$player[1]] = " ";
        $g[$r][$c] = "O";
        @player = ($r, $c);
    } elsif ($cell eq "H") {
        $dead = 1;
    } elsif ($cell eq "~") {
        my ($n, $xr, $xc) = (1, $r + $dr, $c + $dc);
        while ($g[$xr][$xc] eq "~") { $n++; $xr += $dr; $xc += $dc; }
        return if $n >= 2 && $mistake eq "train";
        my $end = $g[$xr][$xc];
        if ($end eq "H") {
            my $behind = $g[$xr + $dr][$xc + $dc];
            my $walls = $mistake eq "crushbeast" ? "#~H" : "#~";
            return if index($walls, $behind) < 0;
            @beasts = grep { !($_->[0] == $xr && $_->[1] == $xc) } @beasts;
            $score += $mistake eq "onepoint" ? 1 : 2;
        } elsif ($end ne " ") {
            return;
        }
        $g[$xr][$xc] = "~";
        $g[$player[0]][$player[1]] = " ";
        $g[$r][$c] = "O";
        @player = ($r, $c);
    }
}

sub beasts_act {
    my ($tr, $tc) = @_;
    for my $b (@beasts) {
        my ($r, $c) = @$b;
        my @best;
        for my $a (@around) {
            my ($dr, $dc) = @$a;
            my $to = $g[$r + $dr][$c + $dc];
            next unless $to eq " " || $to eq "O";
            if ($mistake eq "nosqueeze" && $dr && $dc) {
                next if $g[$r + $dr][$c] =~ /[#~]/ && $g[$r][$c + $dc] =~ /[#~]/;
            }
            my $d = ($r + $dr - $tr)**2 + ($c + $dc - $tc)**2;
            @best = ($d, $r + $dr, $c + $dc) if !@best || $d < $best[0];
        }
        next unless @best;
        my (undef, $nr, $nc) = @best;
        $g[$r][$c] = " ";
        my $eats = $g[$nr][$nc] eq "O";
        $g[$nr][$nc] = "H";
        @$b = ($nr, $nc);
        if ($eats) { $dead = 1; return; }
    }
}

sub turn {
    my ($t, $m) = @_;
    my @start = @player;
    player_acts($m);
    return if $dead || !@beasts;
    beasts_act(@start) if $t % 2 == 0;
}

my $t = 0;
for my $m (@moves) {
    last if $dead || !@beasts;
    $t++;
    turn($t, $m);
}
my %seen;
while (!$dead && @beasts) {
    my $state = join(";", map { "$_->[0],$_->[1]" } @beasts) . "/" . ($t % 2);
    last if $seen{$state}++;
    $t++;
    turn($t, "W");
}
my $sep = $mistake eq "oneline" ? " " : "\n";
print $dead ? "aHHHH!$sep" : "", "$score\n";
