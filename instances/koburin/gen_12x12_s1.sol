12 12
es sw - es sw es sw x es sw x -
ns ne ew nw ne nw ns - ns ne ew sw
ne sw x es sw - ne sw ns - es nw
es nw - ns ne sw - ns ns x ne sw
ns - es nw - ns - ne nw - x ns
ns es nw x - ne sw - x es sw ns
ne nw - es ew sw ne ew ew nw ns ns
- x es nw x ns - x - x ns ns
x es nw x - ne ew ew sw es nw ns
es nw x es sw x - x ne nw x ns
ne sw - ns ne ew sw es sw x - ns
x ne ew nw x - ne nw ne ew ew nw
