// Placeholder until the front end lands; replaced by the real command.
#include <cstdio>
int main() {
  std::puts("alea");
  return 0;
}
