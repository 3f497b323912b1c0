// expect: 4:14: '.trap_handler' needs a label
.kernel k
.dialect sass
.trap_handler
EXIT ;
.end
