// expect: 4:15: bad trap handler address
.kernel k
.dialect sass
.trap_handler 0x8
EXIT ;
.end
