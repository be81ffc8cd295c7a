# tinyaot_json.cmake - reading the generator's <name>.json from cmake -P scripts.

# tinyaot_json_number(<out> <json text> <key>): the number at <key>, 0 if absent.
function(tinyaot_json_number out doc key)
  string(JSON v ERROR_VARIABLE err GET "${doc}" ${key})
  if(err OR NOT v MATCHES "^[0-9]+$")
    set(v 0)
  endif()
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# tinyaot_json_flash(<out> <json text>): flash the model's data needs: weights
# plus the tables computed at compile time (folded biases, multipliers).
function(tinyaot_json_flash out doc)
  tinyaot_json_number(weights "${doc}" weight_bytes)
  tinyaot_json_number(tables "${doc}" table_bytes)
  math(EXPR total "${weights} + ${tables}")
  set(${out} "${total}" PARENT_SCOPE)
endfunction()

# tinyaot_json_io_bytes(<out> <json text> <inputs|outputs> <round>): bytes of the
# model's input or output tensors that live outside the arena (inputs placed in
# it with --inputs-in-arena have an arena_offset), each rounded up to <round>.
function(tinyaot_json_io_bytes out doc key round)
  set(total 0)
  string(JSON n LENGTH "${doc}" ${key})
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON bytes GET "${doc}" ${key} ${i} bytes)
      string(JSON at GET "${doc}" ${key} ${i} arena_offset)
      if(NOT at MATCHES "^[0-9]+$")
        math(EXPR total "${total} + (${bytes} + ${round} - 1) / ${round} * ${round}")
      endif()
    endforeach()
  endif()
  set(${out} "${total}" PARENT_SCOPE)
endfunction()
