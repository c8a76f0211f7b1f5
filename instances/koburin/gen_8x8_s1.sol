8 8
es sw x - es ew ew sw
ns ne ew ew nw - es nw
ne ew sw - es ew nw -
x es nw - ne ew ew sw
- ns - es sw - es nw
es nw es nw ns - ne sw
ne sw ne sw ne sw - ns
- ne ew nw - ne ew nw
