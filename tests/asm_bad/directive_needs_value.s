// expect: 2:7: .const needs a value
.const
