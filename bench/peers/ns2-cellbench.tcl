# Copied from shared/peers/ns2-cellbench.tcl (the project's shared folder beside the repository) so
# a clean clone has it; `npm run bench:peers` runs this copy.
# Peer benchmark: N constant-rate sources of 53-byte packets through one node onto a bottleneck
# link, in ns-2 (the network simulator of the ABR era). Same load as peers/ns3-cellbench.cc.
set nsrc [expr {[llength $argv] > 0 ? [lindex $argv 0] : 10}]
set simt [expr {[llength $argv] > 1 ? [lindex $argv 1] : 0.3}]
set ns [new Simulator]
set sw [$ns node]
set sink [$ns node]
$ns duplex-link $sw $sink 149.76Mb 50us DropTail
$ns queue-limit $sw $sink 1000
set null [new Agent/LossMonitor]
$ns attach-agent $sink $null
set rate [expr {149.76e6 / $nsrc * 1.2}]
for {set i 0} {$i < $nsrc} {incr i} {
  set s($i) [$ns node]
  $ns duplex-link $s($i) $sw 149.76Mb 50us DropTail
  set u($i) [new Agent/UDP]
  $ns attach-agent $s($i) $u($i)
  $ns connect $u($i) $null
  set c($i) [new Application/Traffic/CBR]
  $c($i) set packetSize_ 53
  $c($i) set rate_ $rate
  $c($i) attach-agent $u($i)
  $ns at 0.0 "$c($i) start"
}
set t0 [clock milliseconds]
$ns at $simt "finish"
proc finish {} {
  global ns null t0 nsrc simt
  set wall [expr {([clock milliseconds] - $t0) / 1000.0}]
  puts "{\"peer\":\"ns-2.35\",\"sources\":$nsrc,\"sim_s\":$simt,\"cells_delivered\":[$null set npkts_],\"wall_s\":$wall,\"sim_over_wall\":[expr {$simt / $wall}]}"
  exit 0
}
$ns run
